DROP INDEX "audit_log_entity_idx";--> statement-breakpoint
CREATE INDEX "audit_log_entity_batch_idx" ON "audit_log" USING btree ("entity_type","entity_id",("changes" -> 'hash' -> 'after'));