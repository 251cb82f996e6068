import { APP_ROLE, OPS_ROLE, SUBJECT_ROLE } from './connection.js';

/** Tables that carry customer_id but are not tenant-owned (looked up by token before a tenant). */
const NOT_TENANT_TABLES = ['sessions', 'account_tokens'];
/** Reference data: the application reads it, migrations and seeds write it. */
const READ_ONLY_TABLES = ['countries', 'activity_types', 'content_types', 'verbs'];
/** Insert-only for the application: history must not be rewritten. */
const INSERT_ONLY_TABLES = ['audit_actions', 'outbox_emails'];
/** Only the cross-tenant context (kestrel_ops) may touch these: shared server secrets. */
const OPS_ONLY_TABLES = ['server_secrets'];
/** Tenant tables a subject may write (its refusals are recorded) but never read. */
const SUBJECT_WRITE_ONLY_TABLES = ['audit_actions', 'security_refusals'];

const list = (names: string[]) => names.map((n) => `'${n}'`).join(', ');

/**
 * Roles, grants and row-level security that Drizzle migrations cannot express. Idempotent: it
 * runs after every migration, so tables added by any module are covered: every table with a
 * `customer_id` column gets FORCE RLS and the tenant policy automatically.
 *
 * Three roles, none a superuser or BYPASSRLS, none owning a table:
 * - kestrel_app sees rows where customer_id = current_setting('app.customer_id');
 * - kestrel_subject (a subject user's requests; app.subject_id is its login, subject_users.id)
 *   additionally sees only its own rows: in subjects, the records linked to its login; in a
 *   table with `subject_id`, rows of those records; in a table with `case_id` (once `cases`
 *   exists), rows of their cases; audit_actions insert-only; other tenant tables as kestrel_app;
 * - kestrel_ops (the explicit cross-tenant context) sees every row.
 * Separate roles rather than an OR in one policy keep the tenant predicate index-friendly.
 *
 * subject_users (logins, one per email) has no customer: kestrel_app reads only the logins its
 * tenant's subjects link to, kestrel_subject its own, kestrel_ops all. RLS is enabled but not
 * forced, so kestrel_subject_login(), SECURITY DEFINER and owned by the migrating role, can
 * find or create the login of an email without letting a tenant read any other.
 */
export const securitySql = `
DO $$ BEGIN
  IF NOT EXISTS (SELECT 1 FROM pg_roles WHERE rolname = '${APP_ROLE}') THEN
    CREATE ROLE ${APP_ROLE} NOLOGIN NOSUPERUSER NOBYPASSRLS NOCREATEDB NOCREATEROLE NOINHERIT;
  END IF;
  IF NOT EXISTS (SELECT 1 FROM pg_roles WHERE rolname = '${OPS_ROLE}') THEN
    CREATE ROLE ${OPS_ROLE} NOLOGIN NOSUPERUSER NOBYPASSRLS NOCREATEDB NOCREATEROLE NOINHERIT;
  END IF;
  IF NOT EXISTS (SELECT 1 FROM pg_roles WHERE rolname = '${SUBJECT_ROLE}') THEN
    CREATE ROLE ${SUBJECT_ROLE} NOLOGIN NOSUPERUSER NOBYPASSRLS NOCREATEDB NOCREATEROLE NOINHERIT;
  END IF;
  IF NOT (SELECT rolsuper FROM pg_roles WHERE rolname = current_user) THEN
    IF NOT pg_has_role(current_user, '${APP_ROLE}', 'MEMBER') THEN
      EXECUTE format('GRANT ${APP_ROLE} TO %I', current_user);
    END IF;
    IF NOT pg_has_role(current_user, '${OPS_ROLE}', 'MEMBER') THEN
      EXECUTE format('GRANT ${OPS_ROLE} TO %I', current_user);
    END IF;
    IF NOT pg_has_role(current_user, '${SUBJECT_ROLE}', 'MEMBER') THEN
      EXECUTE format('GRANT ${SUBJECT_ROLE} TO %I', current_user);
    END IF;
  END IF;
END $$;

DO $$ DECLARE r text; t record; tenant text; own text; has_cases boolean; BEGIN
  FOREACH r IN ARRAY ARRAY['${APP_ROLE}', '${OPS_ROLE}', '${SUBJECT_ROLE}'] LOOP
    EXECUTE format('GRANT USAGE ON SCHEMA public TO %I', r);
    EXECUTE format('REVOKE ALL ON ALL TABLES IN SCHEMA public FROM %I', r);
    EXECUTE format('GRANT USAGE, SELECT ON ALL SEQUENCES IN SCHEMA public TO %I', r);
    FOR t IN SELECT c.relname FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
             WHERE n.nspname = 'public' AND c.relkind IN ('r', 'p') LOOP
      IF t.relname IN (${list(OPS_ONLY_TABLES)}) AND r <> '${OPS_ROLE}' THEN
        CONTINUE;
      ELSIF t.relname IN (${list(READ_ONLY_TABLES)}) THEN
        EXECUTE format('GRANT SELECT ON %I TO %I', t.relname, r);
      ELSIF t.relname IN (${list(INSERT_ONLY_TABLES)}) THEN
        EXECUTE format('GRANT SELECT, INSERT ON %I TO %I', t.relname, r);
      ELSE
        EXECUTE format('GRANT SELECT, INSERT, UPDATE, DELETE ON %I TO %I', t.relname, r);
      END IF;
    END LOOP;
  END LOOP;

  tenant := $t$customer_id = nullif(current_setting('app.customer_id', true), '')::integer$t$;
  own := $t$nullif(current_setting('app.subject_id', true), '')::integer$t$;
  SELECT EXISTS (SELECT 1 FROM pg_attribute a JOIN pg_class c ON c.oid = a.attrelid
    JOIN pg_namespace n ON n.oid = c.relnamespace
    WHERE n.nspname = 'public' AND c.relname = 'cases' AND a.attname = 'subject_id'
      AND NOT a.attisdropped)
    AND EXISTS (SELECT 1 FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
      WHERE n.nspname = 'public' AND c.relname = 'subjects') INTO has_cases;
  FOR t IN SELECT c.relname,
             EXISTS (SELECT 1 FROM pg_attribute x WHERE x.attrelid = c.oid
                     AND x.attname = 'subject_id' AND NOT x.attisdropped) AS has_subject,
             EXISTS (SELECT 1 FROM pg_attribute x WHERE x.attrelid = c.oid
                     AND x.attname = 'case_id' AND NOT x.attisdropped) AS has_case
           FROM pg_class c
             JOIN pg_namespace n ON n.oid = c.relnamespace
             JOIN pg_attribute a ON a.attrelid = c.oid AND a.attname = 'customer_id' AND NOT a.attisdropped
           WHERE n.nspname = 'public' AND c.relkind IN ('r', 'p')
             AND c.relname NOT IN (${list(NOT_TENANT_TABLES)}) LOOP
    EXECUTE format('ALTER TABLE %I ENABLE ROW LEVEL SECURITY', t.relname);
    EXECUTE format('ALTER TABLE %I FORCE ROW LEVEL SECURITY', t.relname);
    EXECUTE format('DROP POLICY IF EXISTS tenant_isolation ON %I', t.relname);
    EXECUTE format('DROP POLICY IF EXISTS cross_tenant ON %I', t.relname);
    EXECUTE format('DROP POLICY IF EXISTS subject_own ON %I', t.relname);
    EXECUTE format('CREATE POLICY tenant_isolation ON %I TO ${APP_ROLE} USING (%s) WITH CHECK (%s)',
      t.relname, tenant, tenant);
    EXECUTE format('CREATE POLICY cross_tenant ON %I TO ${OPS_ROLE} USING (true) WITH CHECK (true)', t.relname);
    IF t.relname IN (${list(SUBJECT_WRITE_ONLY_TABLES)}) THEN
      -- subjects' actions are recorded, but subjects never read the customer's history
      EXECUTE format('CREATE POLICY subject_own ON %I TO ${SUBJECT_ROLE} USING (false) WITH CHECK (%s)',
        t.relname, tenant);
    ELSIF t.relname = 'subjects' THEN
      EXECUTE format('CREATE POLICY subject_own ON %I TO ${SUBJECT_ROLE} USING (%s AND user_id = %s) WITH CHECK (%s AND user_id = %s)',
        t.relname, tenant, own, tenant, own);
    ELSIF t.has_subject THEN
      EXECUTE format($p$CREATE POLICY subject_own ON %I TO ${SUBJECT_ROLE}
        USING (%s AND subject_id IN (SELECT id FROM subjects WHERE user_id = %s))
        WITH CHECK (%s AND subject_id IN (SELECT id FROM subjects WHERE user_id = %s))$p$,
        t.relname, tenant, own, tenant, own);
    ELSIF t.has_case AND has_cases THEN
      EXECUTE format($p$CREATE POLICY subject_own ON %I TO ${SUBJECT_ROLE}
        USING (%s AND case_id IN (SELECT c.id FROM cases c JOIN subjects s ON s.id = c.subject_id WHERE s.user_id = %s))
        WITH CHECK (%s AND case_id IN (SELECT c.id FROM cases c JOIN subjects s ON s.id = c.subject_id WHERE s.user_id = %s))$p$,
        t.relname, tenant, own, tenant, own);
    ELSE
      EXECUTE format('CREATE POLICY subject_own ON %I TO ${SUBJECT_ROLE} USING (%s) WITH CHECK (%s)',
        t.relname, tenant, tenant);
    END IF;
  END LOOP;
END $$;

ALTER TABLE subject_users ENABLE ROW LEVEL SECURITY;
ALTER TABLE subject_users NO FORCE ROW LEVEL SECURITY;
DROP POLICY IF EXISTS tenant_isolation ON subject_users;
DROP POLICY IF EXISTS linked ON subject_users;
DROP POLICY IF EXISTS cross_tenant ON subject_users;
DROP POLICY IF EXISTS subject_own ON subject_users;
CREATE POLICY linked ON subject_users FOR SELECT TO ${APP_ROLE}
  USING (id IN (SELECT user_id FROM subjects));
CREATE POLICY cross_tenant ON subject_users TO ${OPS_ROLE} USING (true) WITH CHECK (true);
CREATE POLICY subject_own ON subject_users TO ${SUBJECT_ROLE}
  USING (id = nullif(current_setting('app.subject_id', true), '')::integer)
  WITH CHECK (id = nullif(current_setting('app.subject_id', true), '')::integer);

-- The login of an email, created (with the first customer's details) when there is none yet.
CREATE OR REPLACE FUNCTION kestrel_subject_login(p_email text, p_first text, p_middle text,
    p_last text, p_dob date, p_phone text)
  RETURNS integer LANGUAGE plpgsql SECURITY DEFINER SET search_path = public, pg_temp AS $f$
DECLARE uid integer;
BEGIN
  INSERT INTO subject_users (email, first_name, middlename, last_name, dob, phone_number, terms_agreed_at)
    VALUES (lower(p_email), coalesce(p_first, ''), coalesce(p_middle, ''), coalesce(p_last, ''),
            p_dob, coalesce(p_phone, ''), NULL)
    ON CONFLICT ((lower(email))) DO NOTHING
    RETURNING id INTO uid;
  IF uid IS NULL THEN
    SELECT id INTO uid FROM subject_users WHERE lower(email) = lower(p_email);
  END IF;
  RETURN uid;
END $f$;
REVOKE ALL ON FUNCTION kestrel_subject_login(text, text, text, text, date, text) FROM PUBLIC;
GRANT EXECUTE ON FUNCTION kestrel_subject_login(text, text, text, text, date, text) TO ${APP_ROLE}, ${OPS_ROLE};

ALTER TABLE customers ENABLE ROW LEVEL SECURITY;
ALTER TABLE customers FORCE ROW LEVEL SECURITY;
DROP POLICY IF EXISTS tenant_isolation ON customers;
DROP POLICY IF EXISTS cross_tenant ON customers;
CREATE POLICY tenant_isolation ON customers TO ${APP_ROLE}
  USING (id = nullif(current_setting('app.customer_id', true), '')::integer)
  WITH CHECK (id = nullif(current_setting('app.customer_id', true), '')::integer);
CREATE POLICY cross_tenant ON customers TO ${OPS_ROLE} USING (true) WITH CHECK (true);
DROP POLICY IF EXISTS subject_own ON customers;
CREATE POLICY subject_own ON customers TO ${SUBJECT_ROLE}
  USING (id = nullif(current_setting('app.customer_id', true), '')::integer);
`;
