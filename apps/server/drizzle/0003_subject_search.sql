DROP INDEX "subject_users_search_trgm";--> statement-breakpoint
ALTER TABLE "subject_users" ADD COLUMN "search_first" text GENERATED ALWAYS AS (lower(first_name)) STORED;--> statement-breakpoint
ALTER TABLE "subject_users" ADD COLUMN "search_last" text GENERATED ALWAYS AS (lower(last_name)) STORED;--> statement-breakpoint
ALTER TABLE "subject_users" ADD COLUMN "search_full" text GENERATED ALWAYS AS (lower((first_name)::text || ' ' || (last_name)::text)) STORED;--> statement-breakpoint
ALTER TABLE "subject_users" ADD COLUMN "search_email" text GENERATED ALWAYS AS (lower(email)) STORED;--> statement-breakpoint
CREATE INDEX "subject_users_search_first_idx" ON "subject_users" USING btree ("customer_id","search_first" text_pattern_ops);--> statement-breakpoint
CREATE INDEX "subject_users_search_last_idx" ON "subject_users" USING btree ("customer_id","search_last" text_pattern_ops);--> statement-breakpoint
CREATE INDEX "subject_users_search_full_idx" ON "subject_users" USING btree ("customer_id","search_full" text_pattern_ops);--> statement-breakpoint
CREATE INDEX "subject_users_search_email_idx" ON "subject_users" USING btree ("customer_id","search_email" text_pattern_ops);