DROP INDEX "case_activities_id_unique";--> statement-breakpoint
DROP INDEX "case_addresses_id_unique";--> statement-breakpoint
DROP INDEX "case_other_names_id_unique";--> statement-breakpoint
DROP INDEX "case_documents_id_unique";--> statement-breakpoint
DROP INDEX "cases_id_unique";--> statement-breakpoint
DROP INDEX "process_requirements_id_unique";--> statement-breakpoint
DROP INDEX "processes_id_unique";--> statement-breakpoint
DROP INDEX "subjects_id_unique";--> statement-breakpoint
DROP INDEX "trust_to_ride_sessions_id_unique";--> statement-breakpoint
DROP INDEX "trust_to_ride_bookings_activity_unique";--> statement-breakpoint
CREATE INDEX "case_activities_id_idx" ON "case_activities" USING btree ("id");--> statement-breakpoint
CREATE INDEX "case_addresses_id_idx" ON "case_addresses" USING hash ("id");--> statement-breakpoint
CREATE INDEX "case_other_names_id_idx" ON "case_other_names" USING hash ("id");--> statement-breakpoint
CREATE INDEX "case_documents_id_idx" ON "case_documents" USING btree ("id");--> statement-breakpoint
CREATE INDEX "cases_id_idx" ON "cases" USING btree ("id");--> statement-breakpoint
CREATE INDEX "process_requirements_id_idx" ON "process_requirements" USING btree ("id");--> statement-breakpoint
CREATE INDEX "processes_id_idx" ON "processes" USING btree ("id");--> statement-breakpoint
CREATE INDEX "subjects_id_idx" ON "subjects" USING btree ("id");--> statement-breakpoint
CREATE INDEX "trust_to_ride_sessions_id_idx" ON "trust_to_ride_sessions" USING btree ("id");--> statement-breakpoint
CREATE UNIQUE INDEX "trust_to_ride_bookings_activity_unique" ON "trust_to_ride_bookings" USING btree ("customer_id","case_activity_id");