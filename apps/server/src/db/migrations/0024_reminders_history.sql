CREATE TABLE "reminder_dispatches" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "reminder_dispatches_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"call_id" integer NOT NULL,
	"rule_id" integer,
	"user_id" integer NOT NULL,
	"kind" varchar(10) NOT NULL,
	"due_at" timestamp with time zone NOT NULL,
	"sent_at" timestamp with time zone NOT NULL,
	"items" integer NOT NULL,
	"sent_by" integer,
	CONSTRAINT "reminder_dispatches_kind_check" CHECK ("reminder_dispatches"."kind" in ('rule', 'copy', 'manual'))
);
--> statement-breakpoint
CREATE TABLE "reminder_rules" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "reminder_rules_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"call_id" integer NOT NULL,
	"position" integer NOT NULL,
	"audience" varchar(30) NOT NULL,
	"anchor" varchar(30) NOT NULL,
	"offset_hours" integer NOT NULL,
	"enabled" boolean DEFAULT true NOT NULL,
	"subject" varchar(200) NOT NULL,
	"body" text NOT NULL,
	"since" timestamp with time zone NOT NULL,
	"updated_at" timestamp with time zone NOT NULL,
	CONSTRAINT "reminder_rules_audience_check" CHECK ("reminder_rules"."audience" in ('authors_with_draft', 'reviewers_pending')),
	CONSTRAINT "reminder_rules_anchor_check" CHECK ("reminder_rules"."anchor" in ('submission_close', 'review_close'))
);
--> statement-breakpoint
CREATE TABLE "security_events" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "security_events_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"at" timestamp with time zone NOT NULL,
	"event" varchar(50) NOT NULL,
	"user_id" integer,
	"request_id" varchar(64),
	"address" varchar(64),
	"details" jsonb NOT NULL
);
--> statement-breakpoint
ALTER TABLE "audit_log" ADD COLUMN "call_id" integer;--> statement-breakpoint
ALTER TABLE "audit_log" ADD COLUMN "proposal_id" integer;--> statement-breakpoint
ALTER TABLE "audit_log" ADD COLUMN "subject_user_id" integer;--> statement-breakpoint
ALTER TABLE "audit_log" ADD COLUMN "request_id" varchar(64);--> statement-breakpoint
ALTER TABLE "audit_log" ADD COLUMN "address" varchar(64);--> statement-breakpoint
ALTER TABLE "calls" ADD COLUMN "reminders_version" integer DEFAULT 1 NOT NULL;--> statement-breakpoint
ALTER TABLE "reminder_dispatches" ADD CONSTRAINT "reminder_dispatches_call_id_calls_id_fk" FOREIGN KEY ("call_id") REFERENCES "public"."calls"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "reminder_dispatches" ADD CONSTRAINT "reminder_dispatches_rule_id_reminder_rules_id_fk" FOREIGN KEY ("rule_id") REFERENCES "public"."reminder_rules"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "reminder_dispatches" ADD CONSTRAINT "reminder_dispatches_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "reminder_dispatches" ADD CONSTRAINT "reminder_dispatches_sent_by_users_id_fk" FOREIGN KEY ("sent_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "reminder_rules" ADD CONSTRAINT "reminder_rules_call_id_calls_id_fk" FOREIGN KEY ("call_id") REFERENCES "public"."calls"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "security_events" ADD CONSTRAINT "security_events_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "reminder_dispatches_once_idx" ON "reminder_dispatches" USING btree ("rule_id","user_id","due_at","kind");--> statement-breakpoint
CREATE INDEX "reminder_dispatches_call_user_idx" ON "reminder_dispatches" USING btree ("call_id","user_id","sent_at");--> statement-breakpoint
CREATE INDEX "reminder_dispatches_user_idx" ON "reminder_dispatches" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "reminder_rules_call_idx" ON "reminder_rules" USING btree ("call_id");--> statement-breakpoint
CREATE INDEX "security_events_at_idx" ON "security_events" USING btree ("at");--> statement-breakpoint
CREATE INDEX "security_events_user_idx" ON "security_events" USING btree ("user_id","at");--> statement-breakpoint
ALTER TABLE "audit_log" ADD CONSTRAINT "audit_log_subject_user_id_users_id_fk" FOREIGN KEY ("subject_user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "audit_log_call_idx" ON "audit_log" USING btree ("call_id","at");--> statement-breakpoint
CREATE INDEX "audit_log_proposal_idx" ON "audit_log" USING btree ("proposal_id","at");--> statement-breakpoint
-- The call and proposal of the rows written before this migration, where what they describe still says.
UPDATE "audit_log" SET "call_id" = "entity_id" WHERE "entity_type" = 'call';--> statement-breakpoint
UPDATE "audit_log" a SET "proposal_id" = a."entity_id", "call_id" = p."call_id"
  FROM "proposals" p WHERE a."entity_type" = 'proposal' AND p."id" = a."entity_id";--> statement-breakpoint
UPDATE "audit_log" SET "proposal_id" = "entity_id" WHERE "entity_type" = 'proposal' AND "proposal_id" IS NULL;--> statement-breakpoint
UPDATE "audit_log" a SET "proposal_id" = r."proposal_id", "call_id" = p."call_id"
  FROM "reviews" r JOIN "proposals" p ON p."id" = r."proposal_id"
  WHERE a."entity_type" = 'review' AND r."id" = a."entity_id";--> statement-breakpoint
UPDATE "audit_log" a SET "proposal_id" = c."proposal_id", "call_id" = p."call_id"
  FROM "conflicts" c JOIN "proposals" p ON p."id" = c."proposal_id"
  WHERE a."entity_type" = 'conflict' AND c."id" = a."entity_id";--> statement-breakpoint
UPDATE "audit_log" a SET "call_id" = e."call_id"
  FROM "extensions" e WHERE a."entity_type" = 'extension' AND e."id" = a."entity_id";--> statement-breakpoint
-- Every call not closed gets the default reminders (packages/domain defaultReminderRules;
-- reminders.migration.test.ts holds the two equal), from now on: none reaches back. The
-- texts are E'' strings, so a line's indentation here never becomes part of a body.
INSERT INTO "reminder_rules" ("call_id", "position", "audience", "anchor", "offset_hours", "enabled", "subject", "body", "since", "updated_at")
SELECT c."id", d."position", d."audience", d."anchor", d."offset_hours", true, d."subject", d."body", now(), now()
FROM "calls" c CROSS JOIN (VALUES
  (0, 'authors_with_draft', 'submission_close', -168, E'Submission to {{ call }} closes on {{ deadline }}',
    E'Dear {{ name }},\n\nSubmission to {{ call }} closes on {{ deadline }}. These proposals of yours are still drafts, and a draft is not reviewed:\n\n{{ items }}\n\nOpen each one and choose Submit when it is ready. Your proposals: {{ link }}'),
  (1, 'authors_with_draft', 'submission_close', -24, E'Tomorrow: submission to {{ call }} closes',
    E'Dear {{ name }},\n\nSubmission to {{ call }} closes on {{ deadline }}. These proposals of yours are still drafts, and a draft is not reviewed:\n\n{{ items }}\n\nOpen each one and choose Submit when it is ready. Your proposals: {{ link }}'),
  (2, 'reviewers_pending', 'review_close', -168, E'Reviews for {{ call }} are due on {{ deadline }}',
    E'Dear {{ name }},\n\nReview of {{ call }} closes on {{ deadline }}. These reviews assigned to you are not saved yet:\n\n{{ items }}\n\nYour pending reviews: {{ link }}'),
  (3, 'reviewers_pending', 'review_close', -48, E'Reviews for {{ call }} are due on {{ deadline }}',
    E'Dear {{ name }},\n\nReview of {{ call }} closes on {{ deadline }}. These reviews assigned to you are not saved yet:\n\n{{ items }}\n\nYour pending reviews: {{ link }}'),
  (4, 'reviewers_pending', 'review_close', 24, E'Overdue: your reviews for {{ call }}',
    E'Dear {{ name }},\n\nReview of {{ call }} closed on {{ deadline }}, and these reviews assigned to you are not saved yet:\n\n{{ items }}\n\nThe chairs have a copy of this reminder. If you cannot write them, please tell the chairs. Your pending reviews: {{ link }}')
) AS d("position", "audience", "anchor", "offset_hours", "subject", "body")
WHERE NOT c."closed";--> statement-breakpoint
-- The audit log is append-only for the app (issue 28): a row is never deleted, and an
-- update may only add to it (a Save All batch's list of forms grows) or forget a person
-- (a deleted account's id and address become null). Retention deletes old rows only
-- inside a transaction that says so (ops/retention.ts sets merit.audit_retention).
CREATE FUNCTION "audit_log_append_only"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'DELETE' THEN
    IF current_setting('merit.audit_retention', true) = 'on' THEN
      RETURN OLD;
    END IF;
    RAISE EXCEPTION 'The audit log is append-only: its rows are never deleted.'
      USING ERRCODE = 'insufficient_privilege';
  END IF;
  IF NEW."id" = OLD."id" AND NEW."at" = OLD."at" AND NEW."action" = OLD."action"
    AND NEW."entity_type" = OLD."entity_type" AND NEW."entity_id" = OLD."entity_id"
    AND NEW."call_id" IS NOT DISTINCT FROM OLD."call_id"
    AND NEW."proposal_id" IS NOT DISTINCT FROM OLD."proposal_id"
    AND NEW."request_id" IS NOT DISTINCT FROM OLD."request_id"
    AND (NEW."actor_id" IS NULL OR NEW."actor_id" IS NOT DISTINCT FROM OLD."actor_id")
    AND (NEW."subject_user_id" IS NULL OR NEW."subject_user_id" IS NOT DISTINCT FROM OLD."subject_user_id")
    AND (NEW."address" IS NULL OR NEW."address" IS NOT DISTINCT FROM OLD."address")
    AND NEW."changes" @> OLD."changes" THEN
    RETURN NEW;
  END IF;
  RAISE EXCEPTION 'The audit log is append-only: a row may only gain, never change.'
    USING ERRCODE = 'insufficient_privilege';
END
$$;--> statement-breakpoint
CREATE TRIGGER "audit_log_append_only" BEFORE UPDATE OR DELETE ON "audit_log"
  FOR EACH ROW EXECUTE FUNCTION "audit_log_append_only"();
