CREATE TABLE "proposal_responses" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "proposal_responses_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"proposal_id" integer NOT NULL,
	"form_id" integer NOT NULL,
	"entry_index" integer NOT NULL,
	"data" jsonb NOT NULL,
	"updated_at" timestamp with time zone NOT NULL,
	"updated_by" integer,
	CONSTRAINT "proposal_responses_index_check" CHECK ("proposal_responses"."entry_index" >= 0)
);
--> statement-breakpoint
CREATE TABLE "proposal_saves" (
	"proposal_id" integer NOT NULL,
	"form_id" integer NOT NULL,
	"entry_index" integer NOT NULL,
	"hash" integer NOT NULL,
	"saved_at" timestamp with time zone NOT NULL,
	CONSTRAINT "proposal_saves_proposal_id_form_id_entry_index_hash_pk" PRIMARY KEY("proposal_id","form_id","entry_index","hash")
);
--> statement-breakpoint
ALTER TABLE "proposals" ADD COLUMN "lock_holder_id" integer;--> statement-breakpoint
ALTER TABLE "proposals" ADD COLUMN "lock_expires_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "proposal_responses" ADD CONSTRAINT "proposal_responses_proposal_id_proposals_id_fk" FOREIGN KEY ("proposal_id") REFERENCES "public"."proposals"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "proposal_responses" ADD CONSTRAINT "proposal_responses_form_id_forms_id_fk" FOREIGN KEY ("form_id") REFERENCES "public"."forms"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "proposal_responses" ADD CONSTRAINT "proposal_responses_updated_by_users_id_fk" FOREIGN KEY ("updated_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "proposal_saves" ADD CONSTRAINT "proposal_saves_proposal_id_proposals_id_fk" FOREIGN KEY ("proposal_id") REFERENCES "public"."proposals"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "proposal_responses_entry_idx" ON "proposal_responses" USING btree ("proposal_id","form_id","entry_index");--> statement-breakpoint
CREATE INDEX "proposal_responses_form_idx" ON "proposal_responses" USING btree ("form_id");--> statement-breakpoint
ALTER TABLE "proposals" ADD CONSTRAINT "proposals_lock_holder_id_users_id_fk" FOREIGN KEY ("lock_holder_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "proposals" ADD CONSTRAINT "proposals_state_check" CHECK ("proposals"."state_val" in (0, 1));