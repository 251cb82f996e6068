DROP INDEX "cases_created_idx";--> statement-breakpoint
DROP INDEX "cases_state_idx";--> statement-breakpoint
CREATE INDEX "cases_open_created_idx" ON "cases" USING btree ("customer_id","created_at","id") WHERE "cases"."archived_at" is null;--> statement-breakpoint
CREATE INDEX "cases_open_state_idx" ON "cases" USING btree ("customer_id","state","created_at","id") WHERE "cases"."archived_at" is null;