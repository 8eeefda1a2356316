CREATE TABLE "calls" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "calls_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"committee_id" integer NOT NULL,
	"name" varchar(255) NOT NULL,
	"commencement" timestamp with time zone NOT NULL,
	"termination" timestamp with time zone NOT NULL,
	"review_commencement" timestamp with time zone NOT NULL,
	"review_termination" timestamp with time zone NOT NULL,
	"is_review_open" boolean DEFAULT false NOT NULL,
	"closed" boolean DEFAULT false NOT NULL,
	"closed_at" timestamp with time zone,
	"description" text DEFAULT '' NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"last_modified" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "extensions" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "extensions_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"call_id" integer NOT NULL,
	"user_id" integer NOT NULL,
	"commencement" timestamp with time zone NOT NULL,
	"termination" timestamp with time zone NOT NULL,
	"reason" varchar(200) DEFAULT '' NOT NULL,
	"created_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "proposal_collaborators" (
	"proposal_id" integer NOT NULL,
	"user_id" integer NOT NULL,
	CONSTRAINT "proposal_collaborators_proposal_id_user_id_pk" PRIMARY KEY("proposal_id","user_id")
);
--> statement-breakpoint
CREATE TABLE "proposal_reviewers" (
	"proposal_id" integer NOT NULL,
	"user_id" integer NOT NULL,
	CONSTRAINT "proposal_reviewers_proposal_id_user_id_pk" PRIMARY KEY("proposal_id","user_id")
);
--> statement-breakpoint
CREATE TABLE "proposal_type_forms" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "proposal_type_forms_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"proposal_type_id" integer NOT NULL,
	"form_id" integer NOT NULL,
	"kind" varchar(10) NOT NULL,
	"position" integer NOT NULL,
	CONSTRAINT "proposal_type_forms_kind_check" CHECK ("proposal_type_forms"."kind" in ('proposal', 'review'))
);
--> statement-breakpoint
CREATE TABLE "proposal_types" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "proposal_types_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"call_id" integer NOT NULL,
	"name" varchar(50) NOT NULL,
	"position" integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE "proposals" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "proposals_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"call_id" integer NOT NULL,
	"proposal_type_id" integer NOT NULL,
	"author_id" integer NOT NULL,
	"name" varchar(100) NOT NULL,
	"state_val" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"updated_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "reviews" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "reviews_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"proposal_id" integer NOT NULL,
	"reviewer_id" integer NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"updated_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "calls" ADD CONSTRAINT "calls_committee_id_committees_id_fk" FOREIGN KEY ("committee_id") REFERENCES "public"."committees"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "extensions" ADD CONSTRAINT "extensions_call_id_calls_id_fk" FOREIGN KEY ("call_id") REFERENCES "public"."calls"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "extensions" ADD CONSTRAINT "extensions_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "proposal_collaborators" ADD CONSTRAINT "proposal_collaborators_proposal_id_proposals_id_fk" FOREIGN KEY ("proposal_id") REFERENCES "public"."proposals"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "proposal_collaborators" ADD CONSTRAINT "proposal_collaborators_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "proposal_reviewers" ADD CONSTRAINT "proposal_reviewers_proposal_id_proposals_id_fk" FOREIGN KEY ("proposal_id") REFERENCES "public"."proposals"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "proposal_reviewers" ADD CONSTRAINT "proposal_reviewers_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "proposal_type_forms" ADD CONSTRAINT "proposal_type_forms_proposal_type_id_proposal_types_id_fk" FOREIGN KEY ("proposal_type_id") REFERENCES "public"."proposal_types"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "proposal_type_forms" ADD CONSTRAINT "proposal_type_forms_form_id_forms_id_fk" FOREIGN KEY ("form_id") REFERENCES "public"."forms"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "proposal_types" ADD CONSTRAINT "proposal_types_call_id_calls_id_fk" FOREIGN KEY ("call_id") REFERENCES "public"."calls"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "proposals" ADD CONSTRAINT "proposals_call_id_calls_id_fk" FOREIGN KEY ("call_id") REFERENCES "public"."calls"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "proposals" ADD CONSTRAINT "proposals_proposal_type_id_proposal_types_id_fk" FOREIGN KEY ("proposal_type_id") REFERENCES "public"."proposal_types"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "proposals" ADD CONSTRAINT "proposals_author_id_users_id_fk" FOREIGN KEY ("author_id") REFERENCES "public"."users"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "reviews" ADD CONSTRAINT "reviews_proposal_id_proposals_id_fk" FOREIGN KEY ("proposal_id") REFERENCES "public"."proposals"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "reviews" ADD CONSTRAINT "reviews_reviewer_id_users_id_fk" FOREIGN KEY ("reviewer_id") REFERENCES "public"."users"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "calls_committee_idx" ON "calls" USING btree ("committee_id");--> statement-breakpoint
CREATE INDEX "calls_commencement_idx" ON "calls" USING btree ("commencement");--> statement-breakpoint
CREATE INDEX "extensions_call_user_idx" ON "extensions" USING btree ("call_id","user_id");--> statement-breakpoint
CREATE INDEX "extensions_user_idx" ON "extensions" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "proposal_collaborators_user_idx" ON "proposal_collaborators" USING btree ("user_id");--> statement-breakpoint
CREATE UNIQUE INDEX "proposal_type_forms_unique_idx" ON "proposal_type_forms" USING btree ("proposal_type_id","kind","form_id");--> statement-breakpoint
CREATE INDEX "proposal_type_forms_form_idx" ON "proposal_type_forms" USING btree ("form_id");--> statement-breakpoint
CREATE INDEX "proposal_types_call_idx" ON "proposal_types" USING btree ("call_id");--> statement-breakpoint
CREATE INDEX "proposals_call_idx" ON "proposals" USING btree ("call_id");--> statement-breakpoint
CREATE INDEX "proposals_type_idx" ON "proposals" USING btree ("proposal_type_id");--> statement-breakpoint
CREATE INDEX "proposals_author_idx" ON "proposals" USING btree ("author_id");--> statement-breakpoint
CREATE UNIQUE INDEX "reviews_proposal_reviewer_idx" ON "reviews" USING btree ("proposal_id","reviewer_id");