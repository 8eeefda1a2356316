CREATE TABLE "proposal_locks" (
	"proposal_id" integer PRIMARY KEY NOT NULL,
	"holder_id" integer NOT NULL,
	"token_id" integer NOT NULL,
	"tab_id" varchar(64) NOT NULL,
	"expires_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "proposal_responses" ADD COLUMN "entry_id" uuid DEFAULT gen_random_uuid() NOT NULL;--> statement-breakpoint
ALTER TABLE "proposal_responses" ADD COLUMN "version" integer DEFAULT 1 NOT NULL;--> statement-breakpoint
ALTER TABLE "proposal_saves" ADD COLUMN "digest" varchar(64) DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "proposal_saves" ADD COLUMN "entry_id" uuid;--> statement-breakpoint
ALTER TABLE "proposal_saves" ADD COLUMN "version" integer;--> statement-breakpoint
ALTER TABLE "proposals" ADD COLUMN "decision_summary_version" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "proposals" ADD COLUMN "decision_summary_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "proposals" ADD COLUMN "decision_summary_by" integer;--> statement-breakpoint
ALTER TABLE "reviews" ADD COLUMN "version" integer DEFAULT 1 NOT NULL;--> statement-breakpoint
ALTER TABLE "proposal_locks" ADD CONSTRAINT "proposal_locks_proposal_id_proposals_id_fk" FOREIGN KEY ("proposal_id") REFERENCES "public"."proposals"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "proposal_locks" ADD CONSTRAINT "proposal_locks_holder_id_users_id_fk" FOREIGN KEY ("holder_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "proposals" ADD CONSTRAINT "proposals_decision_summary_by_users_id_fk" FOREIGN KEY ("decision_summary_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "proposal_responses_entry_id_idx" ON "proposal_responses" USING btree ("entry_id");