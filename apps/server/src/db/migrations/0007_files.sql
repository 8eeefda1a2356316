CREATE TABLE "download_tickets" (
	"ticket_hash" varchar(64) PRIMARY KEY NOT NULL,
	"user_id" integer NOT NULL,
	"kind" varchar(10) NOT NULL,
	"target_id" integer NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	CONSTRAINT "download_tickets_kind_check" CHECK ("download_tickets"."kind" in ('file', 'extract'))
);
--> statement-breakpoint
CREATE TABLE "proposal_files" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "proposal_files_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"proposal_id" integer NOT NULL,
	"storage_key" varchar(100) NOT NULL,
	"name" varchar(255) NOT NULL,
	"size" integer NOT NULL,
	"content_type" varchar(200) NOT NULL,
	"form_id" integer,
	"field" varchar(200),
	"uploaded_by" integer,
	"uploaded_at" timestamp with time zone NOT NULL,
	"upload_id" varchar(100),
	CONSTRAINT "proposal_files_size_check" CHECK ("proposal_files"."size" >= 0)
);
--> statement-breakpoint
ALTER TABLE "download_tickets" ADD CONSTRAINT "download_tickets_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "proposal_files" ADD CONSTRAINT "proposal_files_proposal_id_proposals_id_fk" FOREIGN KEY ("proposal_id") REFERENCES "public"."proposals"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "proposal_files" ADD CONSTRAINT "proposal_files_form_id_forms_id_fk" FOREIGN KEY ("form_id") REFERENCES "public"."forms"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "proposal_files" ADD CONSTRAINT "proposal_files_uploaded_by_users_id_fk" FOREIGN KEY ("uploaded_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "download_tickets_expires_idx" ON "download_tickets" USING btree ("expires_at");--> statement-breakpoint
CREATE UNIQUE INDEX "proposal_files_storage_key_idx" ON "proposal_files" USING btree ("storage_key");--> statement-breakpoint
CREATE UNIQUE INDEX "proposal_files_upload_idx" ON "proposal_files" USING btree ("upload_id");--> statement-breakpoint
CREATE INDEX "proposal_files_proposal_idx" ON "proposal_files" USING btree ("proposal_id");