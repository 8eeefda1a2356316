CREATE TABLE "assignment_bids" (
	"proposal_id" integer NOT NULL,
	"user_id" integer NOT NULL,
	"preference" varchar(10) NOT NULL,
	"at" timestamp with time zone NOT NULL,
	CONSTRAINT "assignment_bids_proposal_id_user_id_pk" PRIMARY KEY("proposal_id","user_id"),
	CONSTRAINT "assignment_bids_preference_check" CHECK ("assignment_bids"."preference" in ('eager', 'willing', 'reluctant', 'not_me'))
);
--> statement-breakpoint
CREATE TABLE "assignment_caps" (
	"call_id" integer NOT NULL,
	"user_id" integer NOT NULL,
	"chair_cap" integer,
	"member_cap" integer,
	CONSTRAINT "assignment_caps_call_id_user_id_pk" PRIMARY KEY("call_id","user_id")
);
--> statement-breakpoint
CREATE TABLE "assignment_runs" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "assignment_runs_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"call_id" integer NOT NULL,
	"state" varchar(10) NOT NULL,
	"progress" double precision DEFAULT 0 NOT NULL,
	"redo" boolean NOT NULL,
	"seed" integer NOT NULL,
	"input_digest" varchar(64),
	"result" jsonb,
	"error" text,
	"created_by" integer,
	"created_at" timestamp with time zone NOT NULL,
	"finished_at" timestamp with time zone,
	CONSTRAINT "assignment_runs_state_check" CHECK ("assignment_runs"."state" in ('running', 'ready', 'failed'))
);
--> statement-breakpoint
ALTER TABLE "calls" ADD COLUMN "reviews_per_proposal" integer DEFAULT 3 NOT NULL;--> statement-breakpoint
ALTER TABLE "calls" ADD COLUMN "bidding_open" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "calls" ADD COLUMN "bidding_shows_proposals" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "committee_roles" ADD COLUMN "facilities" jsonb DEFAULT '[]'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "committee_roles" ADD COLUMN "keywords" jsonb DEFAULT '[]'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "proposal_reviewers" ADD COLUMN "locked" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "proposals" ADD COLUMN "reviews_wanted" integer;--> statement-breakpoint
ALTER TABLE "assignment_bids" ADD CONSTRAINT "assignment_bids_proposal_id_proposals_id_fk" FOREIGN KEY ("proposal_id") REFERENCES "public"."proposals"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "assignment_bids" ADD CONSTRAINT "assignment_bids_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "assignment_caps" ADD CONSTRAINT "assignment_caps_call_id_calls_id_fk" FOREIGN KEY ("call_id") REFERENCES "public"."calls"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "assignment_caps" ADD CONSTRAINT "assignment_caps_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "assignment_runs" ADD CONSTRAINT "assignment_runs_call_id_calls_id_fk" FOREIGN KEY ("call_id") REFERENCES "public"."calls"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "assignment_runs" ADD CONSTRAINT "assignment_runs_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "assignment_bids_user_idx" ON "assignment_bids" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "assignment_runs_call_idx" ON "assignment_runs" USING btree ("call_id");--> statement-breakpoint
CREATE INDEX "conflicts_confirmed_idx" ON "conflicts" USING btree ("proposal_id","user_id") WHERE "conflicts"."state" = 'confirmed';