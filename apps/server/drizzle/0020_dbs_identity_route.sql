ALTER TABLE "case_dbs_details" ADD COLUMN "identity_route" integer;--> statement-breakpoint
-- Countersigning became its own permission (issue 17): a role that could countersign before
-- (it held cases.change_caseactivity) keeps that right.
UPDATE "roles" SET "permissions" = array_append("permissions", 'cases.countersign_casedbsdetails')
WHERE 'cases.change_caseactivity' = ANY("permissions")
  AND NOT ('cases.countersign_casedbsdetails' = ANY("permissions"));
