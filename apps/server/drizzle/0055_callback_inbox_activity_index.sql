-- Custom SQL migration file, put your code below! --
-- Retention (issue 34, modules/retention/redacted-copies.ts): a redacted activity's callbacks in
-- the inbox are found by the activity (the inbox's own indexes hold only the pending ones).
CREATE INDEX IF NOT EXISTS "check_callback_inbox_activity_idx" ON "check_callback_inbox" USING btree ("case_activity_id");
