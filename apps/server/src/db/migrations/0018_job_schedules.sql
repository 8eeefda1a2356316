CREATE TABLE "job_schedules" (
	"kind" varchar(50) PRIMARY KEY NOT NULL,
	"next_due_at" timestamp with time zone NOT NULL
);
