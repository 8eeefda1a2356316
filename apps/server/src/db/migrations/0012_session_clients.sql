ALTER TABLE "auth_tokens" ADD COLUMN "user_agent" varchar(512);--> statement-breakpoint
ALTER TABLE "auth_tokens" ADD COLUMN "login_method" varchar(16);