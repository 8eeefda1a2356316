CREATE TABLE "call_capacities" (
	"call_id" integer NOT NULL,
	"facility" varchar(255) NOT NULL,
	"field" varchar(255) NOT NULL,
	"amount" double precision NOT NULL,
	CONSTRAINT "call_capacities_call_id_facility_field_pk" PRIMARY KEY("call_id","facility","field"),
	CONSTRAINT "call_capacities_amount_check" CHECK ("call_capacities"."amount" >= 0)
);
--> statement-breakpoint
CREATE TABLE "decision_letters" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "decision_letters_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"proposal_id" integer NOT NULL,
	"decision_version" integer NOT NULL,
	"letters_version" integer NOT NULL,
	"outcome" varchar(20) NOT NULL,
	"subject" varchar(400) NOT NULL,
	"body_text" text NOT NULL,
	"body_html" text NOT NULL,
	"storage_key" varchar(100),
	"state" varchar(12) NOT NULL,
	"error" text,
	"created_at" timestamp with time zone NOT NULL,
	"sent_at" timestamp with time zone,
	"created_by" integer,
	CONSTRAINT "decision_letters_state_check" CHECK ("decision_letters"."state" in ('queued', 'sent', 'failed', 'superseded'))
);
--> statement-breakpoint
CREATE TABLE "letter_templates" (
	"call_id" integer NOT NULL,
	"outcome" varchar(20) NOT NULL,
	"subject" varchar(300) NOT NULL,
	"body" text NOT NULL,
	"updated_at" timestamp with time zone NOT NULL,
	CONSTRAINT "letter_templates_call_id_outcome_pk" PRIMARY KEY("call_id","outcome"),
	CONSTRAINT "letter_templates_outcome_check" CHECK ("letter_templates"."outcome" in ('approved', 'partly_approved', 'waitlisted', 'declined'))
);
--> statement-breakpoint
CREATE TABLE "proposal_decisions" (
	"proposal_id" integer PRIMARY KEY NOT NULL,
	"outcome" varchar(20),
	"awards" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"award_notes" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"version" integer DEFAULT 0 NOT NULL,
	"decided_at" timestamp with time zone,
	"decided_by" integer,
	"rank_key" double precision,
	"rank_reason" varchar(500),
	"ranked_at" timestamp with time zone,
	"ranked_by" integer,
	CONSTRAINT "proposal_decisions_outcome_check" CHECK ("proposal_decisions"."outcome" is null or "proposal_decisions"."outcome" in ('approved', 'partly_approved', 'waitlisted', 'declined'))
);
--> statement-breakpoint
ALTER TABLE "calls" ADD COLUMN "capacity_version" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "calls" ADD COLUMN "letters_version" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "calls" ADD COLUMN "letter_signature" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "calls" ADD COLUMN "outcome_labels" jsonb DEFAULT '{}'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "calls" ADD COLUMN "decisions_released_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "call_capacities" ADD CONSTRAINT "call_capacities_call_id_calls_id_fk" FOREIGN KEY ("call_id") REFERENCES "public"."calls"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "decision_letters" ADD CONSTRAINT "decision_letters_proposal_id_proposals_id_fk" FOREIGN KEY ("proposal_id") REFERENCES "public"."proposals"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "decision_letters" ADD CONSTRAINT "decision_letters_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "letter_templates" ADD CONSTRAINT "letter_templates_call_id_calls_id_fk" FOREIGN KEY ("call_id") REFERENCES "public"."calls"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "proposal_decisions" ADD CONSTRAINT "proposal_decisions_proposal_id_proposals_id_fk" FOREIGN KEY ("proposal_id") REFERENCES "public"."proposals"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "proposal_decisions" ADD CONSTRAINT "proposal_decisions_decided_by_users_id_fk" FOREIGN KEY ("decided_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "proposal_decisions" ADD CONSTRAINT "proposal_decisions_ranked_by_users_id_fk" FOREIGN KEY ("ranked_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "decision_letters_once_idx" ON "decision_letters" USING btree ("proposal_id","decision_version","letters_version");--> statement-breakpoint
CREATE INDEX "decision_letters_proposal_idx" ON "decision_letters" USING btree ("proposal_id","created_at");