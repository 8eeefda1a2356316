-- Save records from before entries had ids cannot key a retry any more: they only made
-- retries of the last day idempotent, so they go.
DELETE FROM "proposal_saves" WHERE "entry_id" IS NULL OR "version" IS NULL;--> statement-breakpoint
ALTER TABLE "proposal_saves" DROP CONSTRAINT "proposal_saves_proposal_id_form_id_entry_index_hash_pk";--> statement-breakpoint
ALTER TABLE "proposal_saves" ALTER COLUMN "entry_id" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "proposal_saves" ALTER COLUMN "version" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "proposal_saves" ADD CONSTRAINT "proposal_saves_proposal_id_form_id_hash_entry_index_entry_id_pk" PRIMARY KEY("proposal_id","form_id","hash","entry_index","entry_id");