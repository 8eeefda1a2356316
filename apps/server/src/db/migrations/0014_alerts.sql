CREATE TABLE "alert_counts" (
	"kind" varchar(40) NOT NULL,
	"window_start" timestamp with time zone NOT NULL,
	"count" integer NOT NULL,
	CONSTRAINT "alert_counts_kind_window_start_pk" PRIMARY KEY("kind","window_start")
);
--> statement-breakpoint
CREATE TABLE "alerts_raised" (
	"kind" varchar(40) NOT NULL,
	"hour_start" timestamp with time zone NOT NULL,
	"window_start" timestamp with time zone NOT NULL,
	"count" integer NOT NULL,
	"raised_at" timestamp with time zone NOT NULL,
	CONSTRAINT "alerts_raised_kind_hour_start_pk" PRIMARY KEY("kind","hour_start")
);
