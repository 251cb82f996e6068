import pg from 'pg';
import { APP_ROLE, OPS_ROLE, SEED_ROLE, SUBJECT_ROLE } from './connection.js';

const CRUD = 'SELECT, INSERT, UPDATE, DELETE';
/**
 * The cross-tenant context (ops requests, system jobs, sign-up, the portal's writes) on the
 * tables it makes and changes but never deletes from. The demo seed writes as kestrel_seed (the
 * owner's, like the migrations), so nothing here is granted for the seed's sake.
 */
const KEEP = 'SELECT, INSERT, UPDATE';
/** Tables the cross-tenant context only adds rows to (sign-up), never changes. */
const MAKE = 'SELECT, INSERT';
/** Reference data: the application reads it, migrations and seeds write it. */
const REFERENCE = 'activity_types, content_types, countries, verbs';
/** The case data of spec point 3 (modules/case-data): every audience reads and writes it. */
const CASE_DATA =
  'case_basic_details, case_birth_details, case_other_names, case_addresses, case_passports, case_driving_licences, case_dbs_update_details, case_dbs_details, case_rtw_details';
/** Tenant tables a subject's policies let it write but never read (the customer's history). */
const SUBJECT_WRITE_ONLY_TABLES = ['audit_actions', 'security_refusals'];

/**
 * What each context role may do, table by table: the only grants the roles hold (everything
 * else is revoked first, each run). A table not listed here (a new module's) gets CRUD for
 * kestrel_app and kestrel_ops and SELECT for kestrel_subject (its own rows, by the policies
 * below), and the catalog test (privileges.test.ts) fails until it is listed there too.
 * - sessions, rate_limits, maintenance_windows, outbox_emails: only the cross-tenant context
 *   (sessions, login, mail, housekeeping, ops screens) touches them;
 * - account_tokens: the tenant issues tokens (a new user's link, a subject's claim) for its own
 *   customer (policy), never reads them; consuming one is the cross-tenant context's;
 * - customers and entitlements are changed by ops (and sign-up, cross-tenant), which also adds
 *   a new customer's activity types: a tenant only reads its own;
 * - the demo seed writes as kestrel_seed (the owner's, at start), never as kestrel_ops, so the
 *   ops grants are only what ops requests, system jobs, sign-up and the portal write;
 * - audit_actions and outbox_emails are history: never updated or deleted;
 * - a subject reads reference data, its customer, and its own records (policies); it writes
 *   the case data of its own cases and the audit of its actions, and never reads staff, roles
 *   or processes.
 */
const GRANTS: { tables: string; app: string; ops: string; subject: string }[] = [
  { tables: REFERENCE, app: 'SELECT', ops: 'SELECT', subject: 'SELECT' },
  { tables: 'audit_actions', app: 'SELECT, INSERT', ops: 'SELECT, INSERT', subject: 'INSERT' },
  // refusals are counted in the cross-tenant context; a customer's staff read their own
  { tables: 'security_refusals', app: 'SELECT', ops: CRUD, subject: '' },
  // the installation's secrets (anonymous CSRF key, simulators' secrets): made and read at start
  // by the owner (platform/server-secrets.ts), never by a role a request or job runs as
  { tables: 'server_secrets', app: '', ops: '', subject: '' },
  // notes history (operations only): ops context, or an ops session's tenant context
  { tables: 'case_activity_notes', app: 'SELECT, INSERT', ops: 'SELECT, INSERT', subject: '' },
  { tables: 'outbox_emails', app: '', ops: 'SELECT, INSERT', subject: '' },
  // provider callbacks (issue 17): stored by the cross-tenant request, applied by the tenant's job
  {
    tables: 'check_callback_inbox',
    app: 'SELECT, UPDATE',
    ops: 'SELECT, INSERT, UPDATE',
    subject: '',
  },
  { tables: 'sessions, rate_limits, maintenance_windows', app: '', ops: CRUD, subject: '' },
  { tables: 'account_tokens', app: 'INSERT', ops: CRUD, subject: '' },
  // customers are made (sign-up, seed) and changed by ops, never deleted by the server
  { tables: 'customers', app: 'SELECT', ops: 'SELECT, INSERT, UPDATE', subject: 'SELECT' },
  // ops replaces a customer's entitlements (ops.routes) and changes its activity types
  { tables: 'customer_entitlements', app: 'SELECT', ops: CRUD, subject: 'SELECT' },
  // sign-up (cross-tenant) gives a new customer its activity types; changed by migrations only
  { tables: 'customer_activity_types', app: 'SELECT', ops: MAKE, subject: 'SELECT' },
  // logins are made by kestrel_subject_login (the owner's); the cross-tenant context changes
  // them (claim, password reset, profile, consents)
  { tables: 'subject_users', app: 'SELECT', ops: 'SELECT, UPDATE', subject: 'SELECT' },
  // a subject's record and its flags are a customer's (tenant context): ops only reads them
  { tables: 'subjects', app: CRUD, ops: 'SELECT', subject: 'SELECT' },
  { tables: 'flags', app: CRUD, ops: 'SELECT', subject: '' },
  // cases are opened by a customer; the portal (the system context) moves a case on
  { tables: 'cases', app: CRUD, ops: 'SELECT, UPDATE', subject: 'SELECT' },
  // activities: ops adds and services them, jobs record check results
  { tables: 'case_activities', app: CRUD, ops: KEEP, subject: 'SELECT' },
  // case data (issue 15): a subject writes its own open cases' rows (policies by case_id)
  { tables: CASE_DATA, app: CRUD, ops: CRUD, subject: CRUD },
  // documents (issue 16): a subject uploads, replaces and deletes its own cases' (policy by case_id)
  { tables: 'case_documents', app: CRUD, ops: CRUD, subject: CRUD },
  // payments (issue 17): staff create a top-up's intent and read payments; the webhook writes
  // them in the system's context; a subject pays through the public portal, never by its role
  // (the cross-tenant context: the webhook records a payment, the jobs and the webhook move an
  // intent on; neither is ever deleted, nor a payment changed)
  { tables: 'payment_intents', app: 'SELECT, INSERT', ops: 'SELECT, INSERT, UPDATE', subject: '' },
  { tables: 'payments', app: 'SELECT', ops: 'SELECT, INSERT', subject: '' },
  // the identity check's results and the subject's consents: the system context stores and
  // updates them (the provider's callback, the portal's consents), never deletes them
  {
    tables: 'case_online_idv, subject_consents',
    app: CRUD,
    ops: 'SELECT, INSERT, UPDATE',
    subject: 'SELECT',
  },
  // kept by the trigger on cases (case_counts_apply runs as the role changing a case)
  { tables: 'case_counts', app: CRUD, ops: KEEP, subject: '' },
  // a customer's own set-up (tenant context): ops reads it
  { tables: 'processes, process_requirements', app: CRUD, ops: 'SELECT', subject: '' },
  // sign-up makes a customer's first administrator and role; changing them is the tenant's
  { tables: 'roles, product_user_roles', app: CRUD, ops: MAKE, subject: '' },
  // staff accounts: made at sign-up, changed by login, claim, reset and TOTP (cross-tenant)
  { tables: 'product_users', app: CRUD, ops: KEEP, subject: '' },
  // trust-to-ride (issue 27): operations run the sessions and record attendance (cross-tenant);
  // staff read them; a subject reads its customer's sessions and its own cases' bookings, and
  // books through the system context after its case is checked (never by its role)
  {
    tables: 'trust_to_ride_sessions, trust_to_ride_bookings',
    app: 'SELECT',
    ops: KEEP,
    subject: 'SELECT',
  },
];
const DEFAULT_GRANT = { app: CRUD, ops: CRUD, subject: 'SELECT' };

const names = (tables: string) => tables.split(',').map((t) => t.trim());
const list = (tables: string[]) => tables.map((n) => `'${n}'`).join(', ');

/** PL/pgSQL granting one table (an SQL text expression) what `g` names for each role. */
function grantSql(table: string, g: { app: string; ops: string; subject: string }): string {
  return (
    [
      [APP_ROLE, g.app],
      [OPS_ROLE, g.ops],
      [SUBJECT_ROLE, g.subject],
    ] as const
  )
    .filter(([, privileges]) => privileges !== '')
    .map(
      ([role, privileges]) =>
        `    EXECUTE format('GRANT ${privileges} ON %I TO ${role}', ${table});`,
    )
    .join('\n');
}

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
 *   exists), rows of their cases (the tables it may touch at all are those of GRANTS);
 * - kestrel_ops (the explicit cross-tenant context) sees every row.
 * The server enters them from a login that may do nothing else (`loginRoleSql`, decision 011).
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
  IF NOT EXISTS (SELECT 1 FROM pg_roles WHERE rolname = '${SEED_ROLE}') THEN
    CREATE ROLE ${SEED_ROLE} NOLOGIN NOSUPERUSER NOBYPASSRLS NOCREATEDB NOCREATEROLE NOINHERIT;
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
    IF NOT pg_has_role(current_user, '${SEED_ROLE}', 'MEMBER') THEN
      EXECUTE format('GRANT ${SEED_ROLE} TO %I', current_user);
    END IF;
  END IF;
END $$;

DO $$ DECLARE r text; t record; tenant text; own text; has_cases boolean; BEGIN
  FOREACH r IN ARRAY ARRAY['${APP_ROLE}', '${OPS_ROLE}', '${SUBJECT_ROLE}', '${SEED_ROLE}'] LOOP
    EXECUTE format('GRANT USAGE ON SCHEMA public TO %I', r);
    EXECUTE format('REVOKE ALL ON ALL TABLES IN SCHEMA public FROM %I', r);
    EXECUTE format('GRANT USAGE, SELECT ON ALL SEQUENCES IN SCHEMA public TO %I', r);
  END LOOP;
  FOR t IN SELECT c.relname FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
           WHERE n.nspname = 'public' AND c.relkind IN ('r', 'p')
             AND c.relname NOT IN (${list(GRANTS.flatMap((g) => names(g.tables)))}) LOOP
${grantSql('t.relname', DEFAULT_GRANT)}
  END LOOP;
${GRANTS.map((g) =>
  names(g.tables)
    .map(
      (n) =>
        `  IF to_regclass('public.${n}') IS NOT NULL THEN\n${grantSql(`'${n}'`, g)}\n  END IF;`,
    )
    .join('\n'),
).join('\n')}

  -- the demo seed (the owner's, at start) makes and changes rows of every table but the secrets
  EXECUTE 'GRANT SELECT, INSERT, UPDATE ON ALL TABLES IN SCHEMA public TO ${SEED_ROLE}';
  IF to_regclass('public.server_secrets') IS NOT NULL THEN
    EXECUTE 'REVOKE ALL ON server_secrets FROM ${SEED_ROLE}';
  END IF;

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
LOOP
    EXECUTE format('ALTER TABLE %I ENABLE ROW LEVEL SECURITY', t.relname);
    EXECUTE format('ALTER TABLE %I FORCE ROW LEVEL SECURITY', t.relname);
    EXECUTE format('DROP POLICY IF EXISTS tenant_isolation ON %I', t.relname);
    EXECUTE format('DROP POLICY IF EXISTS cross_tenant ON %I', t.relname);
    EXECUTE format('DROP POLICY IF EXISTS subject_own ON %I', t.relname);
    EXECUTE format('CREATE POLICY tenant_isolation ON %I TO ${APP_ROLE} USING (%s) WITH CHECK (%s)',
      t.relname, tenant, tenant);
    EXECUTE format('CREATE POLICY cross_tenant ON %I TO ${OPS_ROLE}, ${SEED_ROLE} USING (true) WITH CHECK (true)', t.relname);
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
CREATE POLICY cross_tenant ON subject_users TO ${OPS_ROLE}, ${SEED_ROLE} USING (true) WITH CHECK (true);
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
GRANT EXECUTE ON FUNCTION kestrel_subject_login(text, text, text, text, date, text) TO ${APP_ROLE}, ${OPS_ROLE}, ${SEED_ROLE};

ALTER TABLE customers ENABLE ROW LEVEL SECURITY;
ALTER TABLE customers FORCE ROW LEVEL SECURITY;
DROP POLICY IF EXISTS tenant_isolation ON customers;
DROP POLICY IF EXISTS cross_tenant ON customers;
CREATE POLICY tenant_isolation ON customers TO ${APP_ROLE}
  USING (id = nullif(current_setting('app.customer_id', true), '')::integer)
  WITH CHECK (id = nullif(current_setting('app.customer_id', true), '')::integer);
CREATE POLICY cross_tenant ON customers TO ${OPS_ROLE}, ${SEED_ROLE} USING (true) WITH CHECK (true);
DROP POLICY IF EXISTS subject_own ON customers;
CREATE POLICY subject_own ON customers TO ${SUBJECT_ROLE}
  USING (id = nullif(current_setting('app.customer_id', true), '')::integer);
`;

const ROLE_NAME = /^[a-z_][a-z0-9_]{0,62}$/;

/**
 * Creates (when missing) the login the server serves requests through, and makes it what it
 * must be: it logs in, is no superuser, cannot bypass RLS, create roles or databases, does not
 * inherit (outside SET ROLE it has no privilege at all, so `RESET ROLE` in a request reads
 * nothing), owns nothing, and may become the three context roles. `password`, when given, is
 * set when the owner may (CREATEROLE). Run by the owner after securitySql (PostgreSQL only; the
 * owner needs CREATEROLE unless the login exists already as described). Roles are shared by every database of the server, and
 * several processes may start at once: a role or membership another one has just made is fine.
 */
export function loginRoleSql(login: string, password: string | null): string {
  if (!ROLE_NAME.test(login)) throw new Error(`Unusable database login name ${login}`);
  const attributes = 'LOGIN NOSUPERUSER NOBYPASSRLS NOCREATEDB NOCREATEROLE NOINHERIT';
  const grants = [APP_ROLE, OPS_ROLE, SUBJECT_ROLE]
    .map(
      (role) => `
  IF NOT pg_has_role('${login}', '${role}', 'MEMBER') THEN
    BEGIN
      GRANT ${role} TO ${login};
    EXCEPTION WHEN unique_violation OR internal_error THEN NULL; -- granted meanwhile
    END;
  END IF;`,
    )
    .join('');
  return `
DO $$ BEGIN
  IF NOT EXISTS (SELECT 1 FROM pg_roles WHERE rolname = '${login}') THEN
    BEGIN
      CREATE ROLE ${login} ${attributes};
    EXCEPTION WHEN duplicate_object OR unique_violation THEN NULL; -- created meanwhile
    END;
  END IF;
  IF EXISTS (SELECT 1 FROM pg_roles WHERE rolname = '${login}' AND (NOT rolcanlogin OR rolsuper
      OR rolbypassrls OR rolcreatedb OR rolcreaterole OR rolinherit)) THEN
    BEGIN
      ALTER ROLE ${login} ${attributes};
    EXCEPTION WHEN internal_error THEN NULL; -- "tuple concurrently updated": another did it
    END;
  END IF;${
    password === null
      ? ''
      : `
  BEGIN
    ALTER ROLE ${login} PASSWORD ${pg.escapeLiteral(password)};
  EXCEPTION
    WHEN internal_error THEN NULL; -- another process set it at the same moment
    WHEN insufficient_privilege THEN NULL; -- an owner without CREATEROLE: the DBA's to set
  END;`
  }${grants}
END $$;`;
}
