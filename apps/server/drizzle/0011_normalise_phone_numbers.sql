-- Custom SQL migration file, put your code below! --
-- Phone numbers are stored as E.164 (issue 14): numbers stored as typed are rewritten. UK numbers
-- in national form ('07911 123456', '(0161) 496-0732') become +44..., '0044...' and '+44 ...'
-- lose their spaces and punctuation; anything else is left as it was (the app shows it as is).
-- The tables force row-level security on their owner: lifted for the rewrite, then restored.
ALTER TABLE "subjects" NO FORCE ROW LEVEL SECURITY;--> statement-breakpoint
UPDATE "subjects" s SET "phone_number" = n.e164 FROM (
  SELECT "id", CASE
    WHEN d ~ '^0[1-9][0-9]{8,9}$' THEN '+44' || substr(d, 2)
    WHEN d ~ '^00[1-9][0-9]{6,14}$' THEN '+' || substr(d, 3)
    WHEN d ~ '^\+[1-9][0-9]{6,14}$' THEN d
  END AS e164
  FROM (SELECT "id", regexp_replace("phone_number", '[[:space:]().-]', '', 'g') AS d FROM "subjects") x
) n WHERE n."id" = s."id" AND n.e164 IS NOT NULL AND n.e164 <> s."phone_number";--> statement-breakpoint
ALTER TABLE "subjects" FORCE ROW LEVEL SECURITY;--> statement-breakpoint
UPDATE "subject_users" s SET "phone_number" = n.e164 FROM (
  SELECT "id", CASE
    WHEN d ~ '^0[1-9][0-9]{8,9}$' THEN '+44' || substr(d, 2)
    WHEN d ~ '^00[1-9][0-9]{6,14}$' THEN '+' || substr(d, 3)
    WHEN d ~ '^\+[1-9][0-9]{6,14}$' THEN d
  END AS e164
  FROM (SELECT "id", regexp_replace("phone_number", '[[:space:]().-]', '', 'g') AS d FROM "subject_users") x
) n WHERE n."id" = s."id" AND n.e164 IS NOT NULL AND n.e164 <> s."phone_number";
