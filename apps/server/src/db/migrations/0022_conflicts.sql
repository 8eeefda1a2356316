CREATE TABLE "conflict_declarations" (
	"proposal_id" integer NOT NULL,
	"user_id" integer NOT NULL,
	"conflict" boolean NOT NULL,
	"type" varchar(20),
	"at" timestamp with time zone NOT NULL,
	CONSTRAINT "conflict_declarations_proposal_id_user_id_pk" PRIMARY KEY("proposal_id","user_id")
);
--> statement-breakpoint
CREATE TABLE "conflicts" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "conflicts_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"proposal_id" integer NOT NULL,
	"user_id" integer NOT NULL,
	"type" varchar(20) NOT NULL,
	"source" varchar(20) NOT NULL,
	"state" varchar(20) NOT NULL,
	"pinned" boolean DEFAULT false NOT NULL,
	"reason" text DEFAULT '' NOT NULL,
	"evidence" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"changed_by" integer,
	"changed_at" timestamp with time zone NOT NULL,
	CONSTRAINT "conflicts_type_check" CHECK ("conflicts"."type" in ('author', 'institutional', 'collaborator', 'personal', 'financial', 'other')),
	CONSTRAINT "conflicts_source_check" CHECK ("conflicts"."source" in ('applicant', 'reviewer', 'chair', 'detected')),
	CONSTRAINT "conflicts_state_check" CHECK ("conflicts"."state" in ('suggested', 'confirmed', 'dismissed'))
);
--> statement-breakpoint
ALTER TABLE "calls" ADD COLUMN "conflicts_enabled" boolean DEFAULT true NOT NULL;--> statement-breakpoint
ALTER TABLE "calls" ADD COLUMN "declaration_required" boolean DEFAULT true NOT NULL;--> statement-breakpoint
ALTER TABLE "proposal_reviewers" ADD COLUMN "override_reason" text;--> statement-breakpoint
ALTER TABLE "proposals" ADD COLUMN "conflicts_version" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "recent_collaborators" jsonb DEFAULT '[]'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "conflict_declarations" ADD CONSTRAINT "conflict_declarations_proposal_id_proposals_id_fk" FOREIGN KEY ("proposal_id") REFERENCES "public"."proposals"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "conflict_declarations" ADD CONSTRAINT "conflict_declarations_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "conflicts" ADD CONSTRAINT "conflicts_proposal_id_proposals_id_fk" FOREIGN KEY ("proposal_id") REFERENCES "public"."proposals"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "conflicts" ADD CONSTRAINT "conflicts_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "conflicts" ADD CONSTRAINT "conflicts_changed_by_users_id_fk" FOREIGN KEY ("changed_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "conflicts_proposal_user_idx" ON "conflicts" USING btree ("proposal_id","user_id");--> statement-breakpoint
CREATE INDEX "conflicts_user_idx" ON "conflicts" USING btree ("user_id");--> statement-breakpoint
-- Calls made before conflicts existed keep reading as they did: their members are not
-- stopped by a declaration halfway through review. New calls ask for one by default.
UPDATE "calls" SET "declaration_required" = false;
