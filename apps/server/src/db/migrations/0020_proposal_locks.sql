ALTER TABLE "proposals" DROP CONSTRAINT "proposals_lock_holder_id_users_id_fk";
--> statement-breakpoint
ALTER TABLE "proposals" DROP COLUMN "lock_holder_id";--> statement-breakpoint
ALTER TABLE "proposals" DROP COLUMN "lock_expires_at";