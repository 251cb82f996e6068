CREATE TABLE "case_counts" (
	"customer_id" integer NOT NULL,
	"state" varchar(30) NOT NULL,
	"archived" boolean NOT NULL,
	"n" integer NOT NULL,
	CONSTRAINT "case_counts_customer_id_state_archived_pk" PRIMARY KEY("customer_id","state","archived")
);
--> statement-breakpoint
ALTER TABLE "case_counts" ADD CONSTRAINT "case_counts_customer_id_customers_id_fk" FOREIGN KEY ("customer_id") REFERENCES "public"."customers"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
-- Counters follow every statement on cases: the rows a statement added, changed or removed,
-- grouped, applied in key order (concurrent statements lock counter rows in the same order).
CREATE FUNCTION "case_counts_apply"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    INSERT INTO case_counts (customer_id, state, archived, n)
      SELECT customer_id, state, archived_at IS NOT NULL, count(*) FROM new_rows
      GROUP BY 1, 2, 3 ORDER BY 1, 2, 3
      ON CONFLICT (customer_id, state, archived) DO UPDATE SET n = case_counts.n + excluded.n;
  ELSIF TG_OP = 'DELETE' THEN
    INSERT INTO case_counts (customer_id, state, archived, n)
      SELECT customer_id, state, archived_at IS NOT NULL, -count(*) FROM old_rows
      GROUP BY 1, 2, 3 ORDER BY 1, 2, 3
      ON CONFLICT (customer_id, state, archived) DO UPDATE SET n = case_counts.n + excluded.n;
  ELSE
    INSERT INTO case_counts (customer_id, state, archived, n)
      SELECT customer_id, state, archived, sum(d)::integer FROM (
        SELECT customer_id, state, archived_at IS NOT NULL AS archived, -1 AS d FROM old_rows
        UNION ALL
        SELECT customer_id, state, archived_at IS NOT NULL, 1 FROM new_rows) changes
      GROUP BY 1, 2, 3 HAVING sum(d) <> 0 ORDER BY 1, 2, 3
      ON CONFLICT (customer_id, state, archived) DO UPDATE SET n = case_counts.n + excluded.n;
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER "cases_count_insert" AFTER INSERT ON "cases" REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION case_counts_apply();
--> statement-breakpoint
CREATE TRIGGER "cases_count_update" AFTER UPDATE ON "cases"
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION case_counts_apply();
--> statement-breakpoint
CREATE TRIGGER "cases_count_delete" AFTER DELETE ON "cases" REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION case_counts_apply();
--> statement-breakpoint
INSERT INTO "case_counts" ("customer_id", "state", "archived", "n")
  SELECT "customer_id", "state", "archived_at" IS NOT NULL, count(*) FROM "cases" GROUP BY 1, 2, 3;
