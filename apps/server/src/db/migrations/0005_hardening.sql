CREATE TABLE "jobs" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "jobs_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"kind" varchar(50) NOT NULL,
	"payload" jsonb NOT NULL,
	"run_at" timestamp with time zone NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"locked_until" timestamp with time zone,
	"failed_at" timestamp with time zone,
	"last_error" text,
	"created_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "login_throttle" (
	"bucket" varchar(400) PRIMARY KEY NOT NULL,
	"window_start" timestamp with time zone NOT NULL,
	"count" integer NOT NULL
);
--> statement-breakpoint
DROP TABLE "login_failures" CASCADE;--> statement-breakpoint
ALTER TABLE "forms" ALTER COLUMN "json_schema" SET DATA TYPE json;--> statement-breakpoint
ALTER TABLE "forms" ALTER COLUMN "ui_schema" SET DATA TYPE json;--> statement-breakpoint
ALTER TABLE "forms" ALTER COLUMN "initial_data" SET DATA TYPE json;--> statement-breakpoint
ALTER TABLE "forms" ALTER COLUMN "options" SET DATA TYPE json;--> statement-breakpoint
ALTER TABLE "audit_log" ADD COLUMN "changes" jsonb DEFAULT '{}'::jsonb NOT NULL;--> statement-breakpoint
-- Rows written before this migration held whole snapshots; keep only the fields that changed.
UPDATE "audit_log" AS a SET "changes" = coalesce((
  SELECT jsonb_object_agg(k.key,
    (CASE WHEN a."before" ? k.key THEN jsonb_build_object('before', a."before" -> k.key) ELSE '{}'::jsonb END) ||
    (CASE WHEN a."after" ? k.key THEN jsonb_build_object('after', a."after" -> k.key) ELSE '{}'::jsonb END))
  FROM (
    SELECT jsonb_object_keys(CASE WHEN jsonb_typeof(a."before") = 'object' THEN a."before" ELSE '{}'::jsonb END) AS key
    UNION
    SELECT jsonb_object_keys(CASE WHEN jsonb_typeof(a."after") = 'object' THEN a."after" ELSE '{}'::jsonb END)
  ) AS k
  WHERE (a."before" -> k.key) IS DISTINCT FROM (a."after" -> k.key)
), '{}'::jsonb);--> statement-breakpoint
ALTER TABLE "audit_log" ALTER COLUMN "changes" DROP DEFAULT;--> statement-breakpoint
ALTER TABLE "calls" ADD COLUMN "version" integer DEFAULT 1 NOT NULL;--> statement-breakpoint
CREATE INDEX "jobs_due_idx" ON "jobs" USING btree ("run_at") WHERE "jobs"."failed_at" is null;--> statement-breakpoint
CREATE INDEX "login_throttle_window_idx" ON "login_throttle" USING btree ("window_start");--> statement-breakpoint
ALTER TABLE "audit_log" DROP COLUMN "before";--> statement-breakpoint
ALTER TABLE "audit_log" DROP COLUMN "after";