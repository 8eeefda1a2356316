CREATE TABLE "security_key_challenges" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "security_key_challenges_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"user_id" integer NOT NULL,
	"purpose" varchar(16) NOT NULL,
	"ticket_hash" varchar(64),
	"challenge" varchar(128) NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	CONSTRAINT "security_key_challenges_purpose_check" CHECK (("security_key_challenges"."purpose" = 'register' and "security_key_challenges"."ticket_hash" is null) or ("security_key_challenges"."purpose" = 'login' and "security_key_challenges"."ticket_hash" is not null))
);
--> statement-breakpoint
CREATE TABLE "security_keys" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "security_keys_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"user_id" integer NOT NULL,
	"credential_id" varchar(1400) NOT NULL,
	"public_key" "bytea" NOT NULL,
	"counter" bigint DEFAULT 0 NOT NULL,
	"transports" text[] DEFAULT '{}'::text[] NOT NULL,
	"name" varchar(64) NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"last_used_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "auth_tokens" ALTER COLUMN "login_method" SET DATA TYPE varchar(32);--> statement-breakpoint
ALTER TABLE "security_key_challenges" ADD CONSTRAINT "security_key_challenges_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "security_key_challenges" ADD CONSTRAINT "security_key_challenges_ticket_hash_two_factor_tickets_ticket_hash_fk" FOREIGN KEY ("ticket_hash") REFERENCES "public"."two_factor_tickets"("ticket_hash") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "security_keys" ADD CONSTRAINT "security_keys_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "security_key_challenges_register_idx" ON "security_key_challenges" USING btree ("user_id") WHERE "security_key_challenges"."purpose" = 'register';--> statement-breakpoint
CREATE UNIQUE INDEX "security_key_challenges_ticket_idx" ON "security_key_challenges" USING btree ("ticket_hash");--> statement-breakpoint
CREATE INDEX "security_key_challenges_expires_idx" ON "security_key_challenges" USING btree ("expires_at");--> statement-breakpoint
CREATE UNIQUE INDEX "security_keys_credential_id_idx" ON "security_keys" USING btree ("credential_id");--> statement-breakpoint
CREATE INDEX "security_keys_user_idx" ON "security_keys" USING btree ("user_id");