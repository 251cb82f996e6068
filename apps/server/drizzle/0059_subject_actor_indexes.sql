-- Custom SQL migration file, put your code below! --
-- An erasure (issue 34, retention/redacted-copies.ts scrubActorNames) renames the erased person
-- where they acted or looked with their own sign-in at one customer: the audit log's and the
-- record of who saw what's rows of a subject user, found by customer and sign-in. Partial indexes
-- holding only subject users' rows (the statements say actor_type = 'SubjectUser' word for word),
-- so the scrub reads a few index entries, not a customer's whole log.
CREATE INDEX IF NOT EXISTS "audit_actions_subject_actor_idx" ON "audit_actions" USING btree ("customer_id", "actor_id") WHERE actor_type = 'SubjectUser';--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "record_views_subject_actor_idx" ON "record_views" USING btree ("customer_id", "actor_id") WHERE actor_type = 'SubjectUser';
