import pg from 'pg';
import { APP_ROLE, OPS_ROLE, SEED_ROLE, SUBJECT_ROLE, SYSTEM_ROLE } from './connection.js';

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
 * kestrel_app, kestrel_ops and kestrel_system and SELECT for kestrel_subject (its own rows, by
 * the policies below), and the catalog test (privileges.test.ts) fails until it is listed there
 * too.
 * - two cross-tenant roles: kestrel_ops holds only what the /api/ops/ screens do (runInOps,
 *   resources with context 'ops'); kestrel_system what the system does on its own (sessions,
 *   login, sign-up, rate limits, housekeeping, mail, provider callbacks and webhooks, jobs of no
 *   customer: runAsSystem, SYSTEM_TX). Neither reads server_secrets;
 * - sessions, rate_limits, account_tokens, check_callback_inbox: the system's only; the tenant
 *   issues tokens (a new user's link, a subject's claim) for its own customer (policy), never
 *   reads them;
 * - customers and entitlements are changed by ops (and sign-up, the system), which also adds a
 *   new customer's activity types: a tenant only reads its own;
 * - the demo seed writes as kestrel_seed (the owner's, at start), never as a serving role;
 * - audit_actions and outbox_emails are history: never updated or deleted;
 * - a subject reads reference data, its customer, and its own records (policies); it writes
 *   the case data and documents of its own cases and the audit of its actions, as itself
 *   (modules/subject-access), and never reads staff, roles or processes.
 */
interface Grant {
  tables: string;
  app: string;
  ops: string;
  system: string;
  subject: string;
}
const GRANTS: Grant[] = [
  { tables: REFERENCE, app: 'SELECT', ops: 'SELECT', system: 'SELECT', subject: 'SELECT' },
  {
    tables: 'audit_actions',
    app: 'SELECT, INSERT',
    ops: 'SELECT, INSERT',
    system: 'SELECT, INSERT',
    subject: 'INSERT',
  },
  // refusals are counted by the system; a customer's staff and ops read them
  { tables: 'security_refusals', app: 'SELECT', ops: 'SELECT', system: CRUD, subject: '' },
  // who saw what (issue 34): views are counted by the system; a customer's audit viewers and ops
  // read them
  { tables: 'record_views', app: 'SELECT', ops: 'SELECT', system: CRUD, subject: '' },
  // the installation's secrets (anonymous CSRF key, simulators' secrets): made and read at start
  // by the owner (platform/server-secrets.ts), never by a role a request or job runs as
  { tables: 'server_secrets', app: '', ops: '', system: '', subject: '' },
  // notes history (operations only): ops context, or an ops session's tenant context
  {
    tables: 'case_activity_notes',
    app: 'SELECT, INSERT',
    ops: 'SELECT, INSERT',
    system: 'SELECT, INSERT',
    subject: '',
  },
  // mail is written by the system (its jobs); ops read the outbox
  { tables: 'outbox_emails', app: '', ops: 'SELECT', system: 'SELECT, INSERT', subject: '' },
  // provider callbacks (issue 17): stored by the system's request, applied by the tenant's job
  {
    tables: 'check_callback_inbox',
    app: 'SELECT, UPDATE',
    ops: '',
    system: 'SELECT, INSERT, UPDATE',
    subject: '',
  },
  // sessions, login throttling: the system's only; ops open and close maintenance windows
  { tables: 'sessions, rate_limits', app: '', ops: '', system: CRUD, subject: '' },
  { tables: 'maintenance_windows', app: '', ops: CRUD, system: CRUD, subject: '' },
  { tables: 'account_tokens', app: 'INSERT', ops: '', system: CRUD, subject: '' },
  // customers are made (sign-up; the ops screens) and changed by ops, never deleted
  {
    tables: 'customers',
    app: 'SELECT',
    ops: 'SELECT, INSERT, UPDATE',
    system: 'SELECT, INSERT, UPDATE',
    subject: 'SELECT',
  },
  // ops replace a customer's entitlements (ops.routes); sign-up gives the first ones
  { tables: 'customer_entitlements', app: 'SELECT', ops: CRUD, system: CRUD, subject: 'SELECT' },
  // sign-up (the system) gives a new customer its activity types; ops switch them on and off
  // (the ops customer edit: a type the customer never had is added)
  {
    tables: 'customer_activity_types',
    app: 'SELECT',
    ops: KEEP,
    system: MAKE,
    subject: 'SELECT',
  },
  // logins are made by kestrel_subject_login (the owner's); the system changes them (claim,
  // password reset, profile); the subject its own (policy: its login only), the DVLA mandates
  // it renewed
  {
    tables: 'subject_users',
    app: 'SELECT',
    ops: 'SELECT',
    system: 'SELECT, UPDATE',
    subject: 'SELECT, UPDATE',
  },
  // a subject's record and its flags are a customer's (tenant context): the others read them
  { tables: 'subjects', app: CRUD, ops: 'SELECT', system: 'SELECT', subject: 'SELECT' },
  { tables: 'flags', app: CRUD, ops: 'SELECT', system: 'SELECT', subject: '' },
  // cases are opened by a customer; ops and the engine move a case on (activities change); the
  // subject moves its own on through the portal (progress, submit: policy by subject_id)
  {
    tables: 'cases',
    app: CRUD,
    ops: 'SELECT, UPDATE',
    system: 'SELECT, UPDATE',
    subject: 'SELECT, UPDATE',
  },
  // activities: ops add and service them, the system's jobs and the engine move them on (a
  // subject's submit and withdrawn consent too: the engine's transitions, run as the system)
  { tables: 'case_activities', app: CRUD, ops: KEEP, system: KEEP, subject: 'SELECT' },
  // case data (issue 15): every audience edits it; a subject its own open cases' (policy by
  // case_id, and subject-access.ts); the system stores the identity provider's answers
  { tables: CASE_DATA, app: CRUD, ops: CRUD, system: CRUD, subject: CRUD },
  // documents (issue 16): a subject uploads, replaces and deletes its own cases' (policy by case_id)
  { tables: 'case_documents', app: CRUD, ops: CRUD, system: CRUD, subject: CRUD },
  // payments (issue 17): staff create a top-up's intent and read payments; the webhook and the
  // jobs (the system) record a payment and move an intent on; neither is ever deleted, nor a
  // payment changed; ops read them
  {
    tables: 'payment_intents',
    app: 'SELECT, INSERT',
    ops: 'SELECT',
    system: 'SELECT, INSERT, UPDATE',
    subject: '',
  },
  { tables: 'payments', app: 'SELECT', ops: 'SELECT', system: 'SELECT, INSERT', subject: '' },
  // the identity check's results: the system stores and updates them (the provider's callback),
  // never deletes them; the subject reads them; ops read them and approve one by hand (the
  // manual approval locks, updates or inserts the row)
  {
    tables: 'case_online_idv',
    app: CRUD,
    ops: 'SELECT, INSERT, UPDATE',
    system: 'SELECT, INSERT, UPDATE',
    subject: 'SELECT',
  },
  // the subject's consents: given, withdrawn and renewed by the subject itself (its own cases),
  // recorded by the system too (the DVLA mandate's renewal job), never deleted
  {
    tables: 'subject_consents',
    app: CRUD,
    ops: 'SELECT',
    system: 'SELECT, INSERT, UPDATE',
    subject: 'SELECT, INSERT, UPDATE',
  },
  // kept by the trigger on cases (case_counts_apply runs as the role changing a case, the
  // subject's too: a statement on cases inserts or updates its customer's counters, so the
  // subject role holds them, by the tenant policy; it never reads them otherwise)
  { tables: 'case_counts', app: CRUD, ops: KEEP, system: KEEP, subject: KEEP },
  // a customer's own set-up (tenant context): the others read it
  {
    tables: 'processes, process_requirements',
    app: CRUD,
    ops: 'SELECT',
    system: 'SELECT',
    subject: '',
  },
  // sign-up (the system) makes a customer's first administrator and role; changing them is the
  // tenant's; ops read them
  { tables: 'roles, product_user_roles', app: CRUD, ops: 'SELECT', system: MAKE, subject: '' },
  // staff accounts: made at sign-up, changed by login, claim, reset and TOTP (the system)
  { tables: 'product_users', app: CRUD, ops: 'SELECT', system: KEEP, subject: '' },
  // trust-to-ride (issue 27): operations run the sessions and record attendance (cross-tenant);
  // staff read them; a subject reads its customer's sessions and its own cases' bookings, and
  // books through the system context after its case is checked (a session's capacity counts
  // every subject's bookings, which the subject may not read)
  {
    tables: 'trust_to_ride_sessions, trust_to_ride_bookings',
    app: 'SELECT',
    ops: KEEP,
    system: KEEP,
    subject: 'SELECT',
  },
  // pricebooks (issue 29): ops set them; a customer reads its own (the cost of a case), the
  // engine (the system) reads a top-up's price from them
  {
    tables: 'pricebooks, pricebook_prices',
    app: 'SELECT',
    ops: CRUD,
    system: 'SELECT',
    subject: '',
  },
  // segments (issue 30): a customer's own set-up (tenant context); ops read them (the ops
  // customer screen), the system reads a case's segment (its employer name)
  {
    tables: 'segments, segment_users',
    app: CRUD,
    ops: 'SELECT',
    system: 'SELECT',
    subject: '',
  },
  // cycles and subscriptions (issue 31): a customer's own (tenant context; the due job runs in
  // the customer's tenant); the system finds which customers have subscriptions due; ops read
  // them; a subject reads its own subscriptions (policy by subject_id) and its customer's cycles
  // (the case portal's subscriptions with their requirements)
  { tables: 'cycles', app: CRUD, ops: 'SELECT', system: 'SELECT', subject: 'SELECT' },
  { tables: 'subscriptions', app: CRUD, ops: 'SELECT', system: 'SELECT', subject: 'SELECT' },
  // a period turned into a case, and a period billed: history, never changed
  {
    tables: 'subscription_periods, subscription_charges',
    app: 'SELECT, INSERT',
    ops: 'SELECT',
    system: 'SELECT',
    subject: '',
  },
  // registration portals (issue 31): a customer's own set-up and its registrations (tenant
  // context: the public registration runs in the portal's customer's tenant once the portal is
  // found); the system finds a portal by its link, a registration by its confirmation token,
  // the customers with registrations to expire, and settles a registration's payment (the
  // webhook); ops read them. Registrations are kept (expired, never deleted); events are history.
  {
    tables: 'registration_portals',
    app: CRUD,
    ops: 'SELECT',
    system: 'SELECT',
    subject: '',
  },
  { tables: 'portal_registrations', app: KEEP, ops: 'SELECT', system: KEEP, subject: '' },
  { tables: 'portal_registration_events', app: MAKE, ops: 'SELECT', system: MAKE, subject: '' },
  // licensing (issue 32): a council keeps its groups, sub-groups, definitions and application
  // portals (tenant context); the system reads what is published (the public council pages run
  // as the system, published rows only); ops read them. Subjects apply through the system's
  // public endpoints and read none of a council's set-up directly.
  {
    tables: 'licence_groups, licence_sub_groups, licence_definitions, lms_application_portals',
    app: CRUD,
    ops: 'SELECT',
    system: 'SELECT',
    subject: '',
  },
  // issued licences are records (never deleted: suspended, revoked, expired, surrendered), and
  // their status trail is history, never changed
  { tables: 'licences', app: KEEP, ops: 'SELECT', system: 'SELECT', subject: '' },
  { tables: 'licence_events', app: MAKE, ops: 'SELECT', system: 'SELECT', subject: '' },
  // the DBS update service cycles of licensed drivers: one row per licence and period, written
  // by the council's job (its tenant), never changed but for the check it started
  { tables: 'licence_update_checks', app: KEEP, ops: 'SELECT', system: 'SELECT', subject: '' },
  // applications (issue 32): the council decides them in its tenant, and the subject's apply runs
  // in the portal's council's tenant on the subject's behalf (its record and case are the
  // council's); the system reads them for the subject's lists across councils; a subject reads
  // its own (policy by subject_id); decided ones are kept, their trail is history
  { tables: 'lms_applications', app: KEEP, ops: 'SELECT', system: 'SELECT', subject: 'SELECT' },
  { tables: 'lms_application_events', app: MAKE, ops: 'SELECT', system: 'SELECT', subject: '' },
  // organisation sign-in (issue 30): the administrator keeps the customer's configuration
  // (tenant context); the system finds it by email domain and runs the sign-in (its states)
  {
    tables: 'customer_sso_configs',
    app: CRUD,
    ops: 'SELECT',
    system: 'SELECT',
    subject: '',
  },
  { tables: 'sso_login_states', app: '', ops: '', system: CRUD, subject: '' },
  // imports (issue 29): ops upload, map and start them; the job runs in the customer's context
  // (its subjects and cases are the customer's), recording each row's outcome
  { tables: 'imports, import_rows', app: CRUD, ops: CRUD, system: '', subject: '' },
  // product payments and refunds (issue 29): recorded and settled by the system (the provider's
  // answers, a refund under a lock of its payment); ops read them; a customer reads its own
  // product payments
  {
    tables: 'product_payments',
    // issue 30: a case's charge is recorded (pending) with the case, in the customer's transaction
    app: 'INSERT, SELECT',
    ops: 'SELECT',
    system: 'SELECT, INSERT, UPDATE',
    subject: '',
  },
  // the customer reads the refunds of its own payments (issue 30: its payments' detail)
  {
    tables: 'payment_refunds',
    app: 'SELECT',
    ops: 'SELECT',
    system: 'SELECT, INSERT, UPDATE',
    subject: '',
  },
  // saved cards and payment settings (issue 30): the customer's administrator keeps them (a card
  // removed keeps its row); ops read them; the system reads the default card it charges a case to
  {
    tables: 'customer_payment_methods, customer_payment_settings',
    app: 'INSERT, SELECT, UPDATE',
    ops: 'SELECT',
    system: 'SELECT',
    subject: '',
  },
  // API keys and webhooks (issue 33): an administrator keeps the customer's keys (revoked, never
  // deleted) and webhook endpoints (tenant context); the system finds a key by its hash for a
  // request's bearer token and notes its last use; deliveries are made and logged by the
  // customer's jobs (tenant context); neither ops nor subjects read them
  { tables: 'api_keys', app: KEEP, ops: '', system: 'SELECT, UPDATE', subject: '' },
  { tables: 'webhook_endpoints', app: CRUD, ops: '', system: '', subject: '' },
  { tables: 'webhook_deliveries', app: KEEP, ops: '', system: '', subject: '' },
  // reminders (issue 33): a case's invitation (expired, resent) and its automatic reminders,
  // written by the customer's staff and the customer's jobs (tenant context); the system finds
  // the due ones across customers; ops read them. Text messages kept locally, like the email
  // outbox: written by the system's job, read by ops
  {
    tables: 'case_invitations',
    app: 'SELECT, INSERT, UPDATE',
    ops: 'SELECT',
    system: 'SELECT',
    subject: '',
  },
  { tables: 'case_reminders', app: 'SELECT, INSERT', ops: 'SELECT', system: 'SELECT', subject: '' },
  { tables: 'outbox_sms', app: '', ops: 'SELECT', system: 'SELECT, INSERT', subject: '' },
  // the expiry calendar's reminders and overdue checks' escalations (issue 33): written by the
  // customer's jobs (tenant context: a reminder once per step, an escalation once per expected
  // date, resolved when the check is done); ops read them (escalations: their list)
  { tables: 'expiry_reminders', app: 'SELECT, INSERT', ops: 'SELECT', system: '', subject: '' },
  {
    tables: 'check_escalations',
    app: 'SELECT, INSERT, UPDATE',
    ops: 'SELECT',
    system: '',
    subject: '',
  },
  // erasure requests (issue 34): recorded and decided by the customer (tenant context), never
  // deleted; the subject asks for its own (policy by subject_id); the system reads a person's
  // across customers and notes the sign-in's outcome; ops read them
  {
    tables: 'erasure_requests',
    app: KEEP,
    ops: 'SELECT',
    system: KEEP,
    subject: 'SELECT, INSERT',
  },
  // retention (issue 34): a customer's settings and its cases' holds kept by its administrator
  // (tenant context); redactions recorded by the customer's retention job (tenant context),
  // never changed; the system finds the due items across customers; ops read them
  {
    tables: 'retention_settings, case_retention',
    app: KEEP,
    ops: 'SELECT',
    system: 'SELECT',
    subject: '',
  },
  { tables: 'retention_redactions', app: MAKE, ops: 'SELECT', system: 'SELECT', subject: '' },
];
const DEFAULT_GRANT: Omit<Grant, 'tables'> = {
  app: CRUD,
  ops: CRUD,
  system: CRUD,
  subject: 'SELECT',
};

const names = (tables: string) => tables.split(',').map((t) => t.trim());
const list = (tables: string[]) => tables.map((n) => `'${n}'`).join(', ');

/** PL/pgSQL granting one table (an SQL text expression) what `g` names for each role. */
function grantSql(table: string, g: Omit<Grant, 'tables'>): string {
  return (
    [
      [APP_ROLE, g.app],
      [OPS_ROLE, g.ops],
      [SYSTEM_ROLE, g.system],
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
 * Segments (issue 30): a product user with segment_users rows who is not an administrator (holds
 * no role named 'admin') is limited to their segments. `kestrel_segment_scope()` gives the ids
 * of the acting user's segments (app.user_id, set for every transaction of the application
 * role), or null for everyone else: no user, an administrator, a user of no segment. A
 * restrictive policy `segment_scope` on the application role then narrows, for a limited user
 * only, every table that reaches a case:
 * - processes: those of their segments;
 * - cases: those whose process is one of their segments';
 * - subjects: those with such a case, or added by a user of one of their segments (created_by_id);
 * - every table with case_id, subject_id or process_id: rows whose case, subject or process is
 *   visible (the subqueries read those tables under their own policies);
 * - audit_actions (read only): entries about a visible case or subject, none about other objects.
 * The scope is read once per statement and policy (an InitPlan), so unlimited users pay one short
 * lookup per table a statement reads. The function is PL/pgSQL, whose statements' plans are kept
 * for the session: a LANGUAGE sql function that is not inlined (it has a SET clause and a FROM) is
 * planned again at every call, which cost a case list ~1 ms of PostgreSQL's CPU per request
 * (four policies read it) against ~0.05 ms per call (issue 28).
 * Kept counts (case_counts) cannot be narrowed: a limited user's totals are counted from cases
 * (segments/segment-scope.ts). One filter, here, for every list, detail, export and count.
 */
const segmentScopeSql = `
DO $$ DECLARE t record; cond text; s text := '(SELECT kestrel_segment_scope())'; BEGIN
  IF to_regclass('public.segment_users') IS NULL OR to_regclass('public.roles') IS NULL THEN
    RETURN;
  END IF;
  EXECUTE $f$CREATE OR REPLACE FUNCTION kestrel_segment_scope() RETURNS integer[]
    LANGUAGE plpgsql STABLE SET search_path = public, pg_temp AS $b$
    DECLARE me integer := nullif(current_setting('app.user_id', true), '')::integer;
    BEGIN
      IF me IS NULL OR EXISTS (
          SELECT 1 FROM product_user_roles ur JOIN roles r ON r.id = ur.role_id
          WHERE ur.user_id = me AND r.name = 'admin') THEN
        RETURN NULL;
      END IF;
      RETURN (SELECT array_agg(su.segment_id ORDER BY su.segment_id) FROM segment_users su
              WHERE su.user_id = me);
    END
    $b$ $f$;
  FOR t IN SELECT c.relname,
             EXISTS (SELECT 1 FROM pg_attribute x WHERE x.attrelid = c.oid
                     AND x.attname = 'case_id' AND NOT x.attisdropped) AS has_case,
             EXISTS (SELECT 1 FROM pg_attribute x WHERE x.attrelid = c.oid
                     AND x.attname = 'subject_id' AND NOT x.attisdropped) AS has_subject,
             EXISTS (SELECT 1 FROM pg_attribute x WHERE x.attrelid = c.oid
                     AND x.attname = 'process_id' AND NOT x.attisdropped) AS has_process
           FROM pg_class c
             JOIN pg_namespace n ON n.oid = c.relnamespace
             JOIN pg_attribute a ON a.attrelid = c.oid AND a.attname = 'customer_id' AND NOT a.attisdropped
           WHERE n.nspname = 'public' AND c.relkind IN ('r', 'p')
  LOOP
    EXECUTE format('DROP POLICY IF EXISTS segment_scope ON %I', t.relname);
    cond := CASE
      WHEN t.relname = 'processes' THEN 'segment_id = ANY(' || s || '::integer[])'
      WHEN t.relname = 'cases' THEN
        'process_id IN (SELECT p.id FROM processes p WHERE p.segment_id = ANY(' || s || '::integer[]))'
      WHEN t.relname = 'subjects' THEN
        'id IN (SELECT c.subject_id FROM cases c) OR created_by_id IN (SELECT su.user_id FROM '
        || 'segment_users su WHERE su.segment_id = ANY(' || s || '::integer[]))'
      WHEN t.relname = 'audit_actions' THEN
        '(content_type = ''cases.case'' AND object_id IN (SELECT c.id::text FROM cases c)) OR '
        || '(content_type = ''subjects.subject'' AND object_id IN (SELECT x.id::text FROM subjects x))'
      WHEN t.has_case OR t.has_subject OR t.has_process THEN concat_ws(' AND ',
        CASE WHEN t.has_case THEN '(case_id IS NULL OR case_id IN (SELECT c.id FROM cases c))' END,
        CASE WHEN t.has_subject THEN
          '(subject_id IS NULL OR subject_id IN (SELECT x.id FROM subjects x))' END,
        CASE WHEN t.has_process THEN
          '(process_id IS NULL OR process_id IN (SELECT p.id FROM processes p))' END)
    END;
    CONTINUE WHEN cond IS NULL;
    IF t.relname = 'audit_actions' THEN
      -- the history is written by everyone's actions; a limited user only reads less of it
      EXECUTE format('CREATE POLICY segment_scope ON %I AS RESTRICTIVE FOR SELECT TO ${APP_ROLE} USING (%s IS NULL OR %s)',
        t.relname, s, cond);
    ELSE
      EXECUTE format('CREATE POLICY segment_scope ON %I AS RESTRICTIVE TO ${APP_ROLE} USING (%s IS NULL OR %s) WITH CHECK (%s IS NULL OR %s)',
        t.relname, s, cond, s, cond);
    END IF;
  END LOOP;
END $$;
`;

/**
 * Roles, grants and row-level security that Drizzle migrations cannot express. Idempotent: it
 * runs after every migration, so tables added by any module are covered: every table with a
 * `customer_id` column gets FORCE RLS and the tenant policy automatically.
 *
 * Four serving roles (and the seed's), none a superuser or BYPASSRLS, none owning a table:
 * - kestrel_app sees rows where customer_id = current_setting('app.customer_id');
 * - kestrel_subject (a subject user's requests; app.subject_id is its login, subject_users.id)
 *   additionally sees only its own rows: in subjects, the records linked to its login; in a
 *   table with `subject_id`, rows of those records; in a table with `case_id` (once `cases`
 *   exists), rows of their cases (the tables it may touch at all are those of GRANTS);
 * - kestrel_ops (operations staff's explicit cross-tenant context) and kestrel_system (the
 *   system's own work) see every row, each with only its own grants (GRANTS).
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
  IF NOT EXISTS (SELECT 1 FROM pg_roles WHERE rolname = '${SYSTEM_ROLE}') THEN
    BEGIN
      CREATE ROLE ${SYSTEM_ROLE} NOLOGIN NOSUPERUSER NOBYPASSRLS NOCREATEDB NOCREATEROLE NOINHERIT;
    EXCEPTION WHEN duplicate_object OR unique_violation THEN NULL; -- created meanwhile
    END;
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
    IF NOT pg_has_role(current_user, '${SYSTEM_ROLE}', 'MEMBER') THEN
      EXECUTE format('GRANT ${SYSTEM_ROLE} TO %I', current_user);
    END IF;
    IF NOT pg_has_role(current_user, '${SEED_ROLE}', 'MEMBER') THEN
      EXECUTE format('GRANT ${SEED_ROLE} TO %I', current_user);
    END IF;
  END IF;
END $$;

DO $$ DECLARE r text; t record; tenant text; own text; has_cases boolean; BEGIN
  FOREACH r IN ARRAY ARRAY['${APP_ROLE}', '${OPS_ROLE}', '${SUBJECT_ROLE}', '${SYSTEM_ROLE}', '${SEED_ROLE}'] LOOP
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
    EXECUTE format('CREATE POLICY cross_tenant ON %I TO ${OPS_ROLE}, ${SYSTEM_ROLE}, ${SEED_ROLE} USING (true) WITH CHECK (true)', t.relname);
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
CREATE POLICY cross_tenant ON subject_users TO ${OPS_ROLE}, ${SYSTEM_ROLE}, ${SEED_ROLE} USING (true) WITH CHECK (true);
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
GRANT EXECUTE ON FUNCTION kestrel_subject_login(text, text, text, text, date, text) TO ${APP_ROLE}, ${SYSTEM_ROLE}, ${SEED_ROLE};

ALTER TABLE customers ENABLE ROW LEVEL SECURITY;
ALTER TABLE customers FORCE ROW LEVEL SECURITY;
DROP POLICY IF EXISTS tenant_isolation ON customers;
DROP POLICY IF EXISTS cross_tenant ON customers;
CREATE POLICY tenant_isolation ON customers TO ${APP_ROLE}
  USING (id = nullif(current_setting('app.customer_id', true), '')::integer)
  WITH CHECK (id = nullif(current_setting('app.customer_id', true), '')::integer);
CREATE POLICY cross_tenant ON customers TO ${OPS_ROLE}, ${SYSTEM_ROLE}, ${SEED_ROLE} USING (true) WITH CHECK (true);
DROP POLICY IF EXISTS subject_own ON customers;
CREATE POLICY subject_own ON customers TO ${SUBJECT_ROLE}
  USING (id = nullif(current_setting('app.customer_id', true), '')::integer);
${segmentScopeSql}`;

const ROLE_NAME = /^[a-z_][a-z0-9_]{0,62}$/;

/**
 * Creates (when missing) the login the server serves requests through, and makes it what it
 * must be: it logs in, is no superuser, cannot bypass RLS, create roles or databases, does not
 * inherit (outside SET ROLE it has no privilege at all, so `RESET ROLE` in a request reads
 * nothing), owns nothing, and may become the four context roles (not the seed's). `password`, when given, is
 * set when the owner may (CREATEROLE). Run by the owner after securitySql (PostgreSQL only; the
 * owner needs CREATEROLE unless the login exists already as described). Roles are shared by every database of the server, and
 * several processes may start at once: a role or membership another one has just made is fine.
 */
export function loginRoleSql(login: string, password: string | null): string {
  if (!ROLE_NAME.test(login)) throw new Error(`Unusable database login name ${login}`);
  const attributes = 'LOGIN NOSUPERUSER NOBYPASSRLS NOCREATEDB NOCREATEROLE NOINHERIT';
  const grants = [APP_ROLE, OPS_ROLE, SUBJECT_ROLE, SYSTEM_ROLE]
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
