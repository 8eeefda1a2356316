CREATE TABLE "review_responses" (
	"review_id" integer NOT NULL,
	"form_id" integer NOT NULL,
	"data" jsonb NOT NULL,
	"updated_at" timestamp with time zone NOT NULL,
	CONSTRAINT "review_responses_review_id_form_id_pk" PRIMARY KEY("review_id","form_id")
);
--> statement-breakpoint
ALTER TABLE "reviews" ADD COLUMN "score" double precision;--> statement-breakpoint
ALTER TABLE "reviews" ADD COLUMN "scores" jsonb DEFAULT '[]'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "review_responses" ADD CONSTRAINT "review_responses_review_id_reviews_id_fk" FOREIGN KEY ("review_id") REFERENCES "public"."reviews"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "review_responses" ADD CONSTRAINT "review_responses_form_id_forms_id_fk" FOREIGN KEY ("form_id") REFERENCES "public"."forms"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "review_responses_form_idx" ON "review_responses" USING btree ("form_id");--> statement-breakpoint
CREATE INDEX "reviews_reviewer_idx" ON "reviews" USING btree ("reviewer_id");