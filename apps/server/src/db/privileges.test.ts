// @postgres: grants and the serving login on a real cluster (pg-only part: the login, RESET ROLE)

import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  buildTestApp,
  createCustomer,
  createProductUser,
  createSubjectUser,
  type TestApp,
} from '../../test/helpers.js';
import { flags } from '../modules/flags/flags.table.js';
import {
  APP_ROLE,
  OPS_ROLE,
  SEED_ROLE,
  SUBJECT_ROLE,
  SYSTEM_ROLE,
  type TxSettings,
} from './connection.js';
import { loginRoleSql } from './security.js';
import { servingRoleWarnings } from './serving-role.js';

/**
 * Least privilege in the database, read from the catalog. The allow lists below are the whole
 * of what each role may do; a new table (or a new grant) fails this test until it is added here
 * on purpose. Rows are then limited further by the policies of db/security.ts.
 */
const CRUD = 'DELETE, INSERT, SELECT, UPDATE';
/** What ops does to the tables it makes and changes but never deletes from. */
const KEEP = 'INSERT, SELECT, UPDATE';
const REFERENCE = ['activity_types', 'content_types', 'countries', 'verbs'];
const CASE_DATA = Object.fromEntries(
  [
    'case_addresses',
    'case_basic_details',
    'case_birth_details',
    'case_dbs_details',
    'case_dbs_update_details',
    'case_rtw_details',
    'case_driving_licences',
    'case_other_names',
    'case_passports',
  ].map((t) => [t, CRUD]),
);
const ALLOWED: Record<string, Record<string, string>> = {
  [APP_ROLE]: {
    // issue 34: erasure requests kept (decided, never deleted)
    erasure_requests: KEEP,
    // issue 33: API keys kept (revoked, never deleted), webhook endpoints, deliveries logged
    api_keys: KEEP,
    webhook_endpoints: CRUD,
    webhook_deliveries: KEEP,
    // issue 33: a case's invitation (expired, resent) and its automatic reminders
    case_invitations: 'INSERT, SELECT, UPDATE',
    case_reminders: 'INSERT, SELECT',
    // issue 33: the expiry calendar's reminders, overdue checks' escalations
    expiry_reminders: 'INSERT, SELECT',
    check_escalations: 'INSERT, SELECT, UPDATE',
    // issue 34: retention settings and holds kept, redactions recorded
    retention_settings: 'INSERT, SELECT, UPDATE',
    case_retention: 'INSERT, SELECT, UPDATE',
    retention_redactions: 'INSERT, SELECT',
    // issue 32: a council's licensing set-up kept; licences never deleted, their trail history
    licence_groups: CRUD,
    licence_sub_groups: CRUD,
    licence_definitions: CRUD,
    lms_application_portals: CRUD,
    licences: KEEP,
    licence_events: 'INSERT, SELECT',
    licence_update_checks: KEEP,
    // issue 32: applications kept (decided, never deleted), their trail history
    lms_applications: KEEP,
    lms_application_events: 'INSERT, SELECT',
    // issue 31: registration portals kept; registrations kept (expired, never deleted)
    registration_portals: CRUD,
    portal_registrations: KEEP,
    portal_registration_events: 'INSERT, SELECT',
    // issue 31: cycles and subscriptions kept; periods and billing recorded, never changed
    cycles: CRUD,
    subscriptions: CRUD,
    subscription_periods: 'INSERT, SELECT',
    subscription_charges: 'INSERT, SELECT',
    // issue 30: the organisation sign-in's configuration, kept by its administrator
    customer_sso_configs: CRUD,
    // issue 30: saved cards and payment settings kept; a case's charge recorded with the case
    customer_payment_methods: 'INSERT, SELECT, UPDATE',
    customer_payment_settings: 'INSERT, SELECT, UPDATE',
    // issue 29: pricebooks read, imports run, own product payments read
    pricebooks: 'SELECT',
    pricebook_prices: 'SELECT',
    imports: 'DELETE, INSERT, SELECT, UPDATE',
    import_rows: 'DELETE, INSERT, SELECT, UPDATE',
    product_payments: 'INSERT, SELECT',
    // issue 30: the refunds of its own payments read (the customer's payments detail)
    payment_refunds: 'SELECT',
    ...Object.fromEntries(REFERENCE.map((t) => [t, 'SELECT'])),
    account_tokens: 'INSERT',
    ...CASE_DATA,
    audit_actions: 'INSERT, SELECT',
    case_activities: CRUD,
    case_activity_notes: 'INSERT, SELECT',
    case_counts: CRUD,
    case_documents: CRUD,
    case_online_idv: CRUD,
    cases: CRUD,
    // provider callbacks: applied (marked) by the customer's job
    check_callback_inbox: 'SELECT, UPDATE',
    customer_activity_types: 'SELECT',
    customer_entitlements: 'SELECT',
    customers: 'SELECT',
    flags: CRUD,
    payment_intents: 'INSERT, SELECT',
    payments: 'SELECT',
    process_requirements: CRUD,
    processes: CRUD,
    product_user_roles: CRUD,
    // issue 30: a customer's segments and their users
    segment_users: CRUD,
    segments: CRUD,
    product_users: CRUD,
    roles: CRUD,
    security_refusals: 'SELECT',
    record_views: 'SELECT',
    subject_consents: CRUD,
    subject_users: 'SELECT',
    subjects: CRUD,
    trust_to_ride_bookings: 'SELECT',
    trust_to_ride_sessions: 'SELECT',
  },
  [SUBJECT_ROLE]: {
    // issue 34: a subject asks for the erasure of its own record (policy by subject_id)
    erasure_requests: 'INSERT, SELECT',
    // issue 32: a subject reads its own licence applications (policy by subject_id)
    lms_applications: 'SELECT',
    // issue 31: its own subscriptions and its customer's cycles (the case portal)
    cycles: 'SELECT',
    subscriptions: 'SELECT',
    ...Object.fromEntries(REFERENCE.map((t) => [t, 'SELECT'])),
    ...CASE_DATA,
    audit_actions: 'INSERT',
    // moved on by the engine (the system), a subject's submit included
    case_activities: 'SELECT',
    // the trigger on cases runs as the role changing a case (its portal progress)
    case_counts: KEEP,
    case_documents: CRUD,
    // written by the system context only (the provider's results); the subject reads its own
    case_online_idv: 'SELECT',
    cases: 'SELECT, UPDATE',
    customer_activity_types: 'SELECT',
    customer_entitlements: 'SELECT',
    customers: 'SELECT',
    // the subject gives, withdraws and renews its own consents (platform/subject-access.ts)
    subject_consents: KEEP,
    // its own login (policy): the DVLA mandates it renewed
    subject_users: 'SELECT, UPDATE',
    subjects: 'SELECT',
    // a subject's booking is written by the system context after its case is checked
    trust_to_ride_bookings: 'SELECT',
    trust_to_ride_sessions: 'SELECT',
  },
  [OPS_ROLE]: {
    // issue 34: erasure requests read
    erasure_requests: 'SELECT',
    // issue 34: retention settings, holds and redactions read
    retention_settings: 'SELECT',
    case_retention: 'SELECT',
    retention_redactions: 'SELECT',
    // issue 33: invitations and reminders read, the local text messages read
    case_invitations: 'SELECT',
    case_reminders: 'SELECT',
    outbox_sms: 'SELECT',
    // issue 33: the expiry calendar's reminders and the escalations read
    expiry_reminders: 'SELECT',
    check_escalations: 'SELECT',
    // issue 32: licensing read (the system: the public council pages, published rows only)
    licence_groups: 'SELECT',
    licence_sub_groups: 'SELECT',
    licence_definitions: 'SELECT',
    lms_application_portals: 'SELECT',
    licences: 'SELECT',
    licence_events: 'SELECT',
    licence_update_checks: 'SELECT',
    lms_applications: 'SELECT',
    lms_application_events: 'SELECT',
    // issue 31: registration portals and registrations read
    registration_portals: 'SELECT',
    portal_registrations: 'SELECT',
    portal_registration_events: 'SELECT',
    // issue 31: cycles and subscriptions read
    cycles: 'SELECT',
    subscriptions: 'SELECT',
    subscription_periods: 'SELECT',
    subscription_charges: 'SELECT',
    // issue 30: a customer's organisation sign-in read
    customer_sso_configs: 'SELECT',
    // issue 30: a customer's saved cards and payment settings read
    customer_payment_methods: 'SELECT',
    customer_payment_settings: 'SELECT',
    // issue 29: pricebooks set, imports made, payments and refunds read
    pricebooks: 'DELETE, INSERT, SELECT, UPDATE',
    pricebook_prices: 'DELETE, INSERT, SELECT, UPDATE',
    imports: 'DELETE, INSERT, SELECT, UPDATE',
    import_rows: 'DELETE, INSERT, SELECT, UPDATE',
    product_payments: 'SELECT',
    payment_refunds: 'SELECT',
    // only what the /api/ops/ endpoints do (runInOps, resources with context 'ops'): no
    // sessions, tokens, rate limits, callbacks, payments or secrets (the system's)
    ...Object.fromEntries(REFERENCE.map((t) => [t, 'SELECT'])),
    // ops edit a case's data and documents like customer staff
    ...CASE_DATA,
    audit_actions: 'INSERT, SELECT',
    // ops add and service activities; the case follows (its counts by trigger)
    case_activities: KEEP,
    case_activity_notes: 'INSERT, SELECT',
    case_counts: KEEP,
    case_documents: CRUD,
    // operations approve an identity check by hand
    case_online_idv: 'INSERT, SELECT, UPDATE',
    cases: 'SELECT, UPDATE',
    // the ops customer edit switches a customer's activity types on and off (and adds one)
    customer_activity_types: 'INSERT, SELECT, UPDATE',
    // the ops customer screens: create, change, entitlements replaced
    customer_entitlements: CRUD,
    customers: 'INSERT, SELECT, UPDATE',
    flags: 'SELECT',
    maintenance_windows: CRUD,
    outbox_emails: 'SELECT',
    payment_intents: 'SELECT',
    payments: 'SELECT',
    process_requirements: 'SELECT',
    processes: 'SELECT',
    product_user_roles: 'SELECT',
    product_users: 'SELECT',
    roles: 'SELECT',
    security_refusals: 'SELECT',
    record_views: 'SELECT',
    // issue 30: the ops customer screen lists a customer's segments
    segment_users: 'SELECT',
    segments: 'SELECT',
    subject_consents: 'SELECT',
    subject_users: 'SELECT',
    subjects: 'SELECT',
    // operations run the sessions and record attendance
    trust_to_ride_bookings: KEEP,
    trust_to_ride_sessions: KEEP,
  },
  [SYSTEM_ROLE]: {
    // issue 34: a person's erasure requests read across customers, the sign-in's outcome noted
    erasure_requests: KEEP,
    // issue 33: a bearer key found by its hash, its last use noted
    api_keys: 'SELECT, UPDATE',
    // issue 34: the due redactions found across customers
    retention_settings: 'SELECT',
    case_retention: 'SELECT',
    retention_redactions: 'SELECT',
    // issue 33: the due reminders and expiries found across customers; text messages kept
    case_invitations: 'SELECT',
    case_reminders: 'SELECT',
    outbox_sms: 'INSERT, SELECT',
    // issue 32: licensing read (the system: the public council pages, published rows only)
    licence_groups: 'SELECT',
    licence_sub_groups: 'SELECT',
    licence_definitions: 'SELECT',
    lms_application_portals: 'SELECT',
    licences: 'SELECT',
    licence_events: 'SELECT',
    licence_update_checks: 'SELECT',
    lms_applications: 'SELECT',
    lms_application_events: 'SELECT',
    // issue 31: a portal found by its link, a registration by its token; expiry and payment
    registration_portals: 'SELECT',
    portal_registrations: KEEP,
    portal_registration_events: 'INSERT, SELECT',
    // issue 31: cycles and subscriptions read
    cycles: 'SELECT',
    subscriptions: 'SELECT',
    subscription_periods: 'SELECT',
    subscription_charges: 'SELECT',
    // issue 30: organisation sign-in found by email domain, its sign-ins under way
    customer_sso_configs: 'SELECT',
    sso_login_states: CRUD,
    // issue 30: the default card a case is charged to
    customer_payment_methods: 'SELECT',
    customer_payment_settings: 'SELECT',
    // issue 29: a top-up's price read; payments and refunds recorded and settled
    pricebooks: 'SELECT',
    pricebook_prices: 'SELECT',
    product_payments: 'INSERT, SELECT, UPDATE',
    payment_refunds: 'INSERT, SELECT, UPDATE',
    // the system's own work across every tenant: sessions, login and sign-up, rate limits,
    // housekeeping, mail, provider callbacks and webhooks, jobs of no customer, refusals
    ...Object.fromEntries(REFERENCE.map((t) => [t, 'SELECT'])),
    account_tokens: CRUD,
    ...CASE_DATA,
    audit_actions: 'INSERT, SELECT',
    case_activities: KEEP,
    case_activity_notes: 'INSERT, SELECT',
    // kept by the trigger on cases, which runs as the role changing a case (the portal)
    case_counts: KEEP,
    case_documents: CRUD,
    case_online_idv: 'INSERT, SELECT, UPDATE',
    cases: 'SELECT, UPDATE',
    check_callback_inbox: 'INSERT, SELECT, UPDATE',
    customer_activity_types: 'INSERT, SELECT',
    customer_entitlements: CRUD,
    customers: 'INSERT, SELECT, UPDATE',
    flags: 'SELECT',
    maintenance_windows: CRUD,
    payment_intents: 'INSERT, SELECT, UPDATE',
    payments: 'INSERT, SELECT',
    outbox_emails: 'INSERT, SELECT',
    process_requirements: 'SELECT',
    processes: 'SELECT',
    product_user_roles: 'INSERT, SELECT',
    product_users: KEEP,
    rate_limits: CRUD,
    roles: 'INSERT, SELECT',
    security_refusals: CRUD,
    record_views: CRUD,
    // issue 30: a case's segment (its employer name)
    segment_users: 'SELECT',
    segments: 'SELECT',
    sessions: CRUD,
    subject_consents: 'INSERT, SELECT, UPDATE',
    subject_users: 'SELECT, UPDATE',
    subjects: 'SELECT',
    // a subject's booking (the session's capacity counts every subject's)
    trust_to_ride_bookings: KEEP,
    trust_to_ride_sessions: KEEP,
  },
};

let t: TestApp;
let a: number;
let b: number;
let bUser: number;

beforeAll(async () => {
  t = await buildTestApp();
  await t.owner(async (tx) => {
    a = (await createCustomer(tx, { name: 'A' })).id;
    b = (await createCustomer(tx, { name: 'B' })).id;
    await createProductUser(tx, { customerId: a, username: 'staff@a.test' });
    bUser = (await createProductUser(tx, { customerId: b, username: 'staff@b.test' })).id;
    await tx.insert(flags).values([{ customerId: b, kind: 'b-only' }]);
    await tx.execute(sql`
      insert into sessions (token_hash, csrf_token, user_type, user_id, customer_id)
      values ('b-session', 'b-csrf', 'ProductUser', ${bUser}, ${b})`);
    await tx.execute(sql`
      insert into account_tokens (token_hash, purpose, user_type, user_id, customer_id, expires_at)
      values ('b-token', 'reset', 'ProductUser', ${bUser}, ${b}, now() + interval '1 hour')`);
    await tx.execute(sql`
      insert into outbox_emails ("to", subject, text) values ('staff@b.test', 'Reset', 'link')`);
    await tx.execute(sql`
      insert into rate_limits (key, window_start, count) values ('login:staff@b.test', now(), 9)`);
    await tx.execute(sql`
      insert into maintenance_windows (start, "end", warning_start)
      values (now(), now() + interval '1 hour', now())`);
  });
});
afterAll(() => t.close());

/** The database's own message (Drizzle wraps driver errors). */
async function failure(p: Promise<unknown>): Promise<string> {
  try {
    await p;
  } catch (err) {
    const cause = err instanceof Error && err.cause instanceof Error ? err.cause : err;
    return cause instanceof Error ? cause.message : String(cause);
  }
  return 'no error';
}

/** Runs one statement in a transaction with these settings; its rows, or the refusal. */
async function attempt(s: TxSettings, statement: ReturnType<typeof sql>): Promise<string> {
  return failure(t.db.transaction(s, (tx) => tx.execute(statement))).then((m) =>
    m === 'no error' ? 'allowed' : m,
  );
}

/** Customer A's tenant context (A exists once beforeAll has run). */
const tenantA = (): TxSettings => ({ scope: 'tenant', customerId: a });

describe('the catalog', () => {
  it('forces row-level security on every table with a customer_id column', async () => {
    const rows = await t.owner((tx) =>
      tx.execute<{ relname: string; enabled: boolean; forced: boolean }>(sql`
        select c.relname, c.relrowsecurity as enabled, c.relforcerowsecurity as forced
        from pg_class c
        join pg_namespace n on n.oid = c.relnamespace
        join pg_attribute a on a.attrelid = c.oid and a.attname = 'customer_id' and not a.attisdropped
        where n.nspname = 'public' and c.relkind in ('r', 'p')
        order by 1`),
    );
    expect(rows.map((r) => r.relname)).toContain('sessions');
    expect(rows.filter((r) => !r.enabled || !r.forced).map((r) => r.relname)).toEqual([]);
  });

  it('grants each role only what its allow list names', async () => {
    const roles = Object.keys(ALLOWED);
    const rows = await t.owner((tx) =>
      tx.execute<{ role: string; relname: string; privileges: string }>(sql`
        select g.rolname as role, c.relname,
          string_agg(distinct x.privilege_type, ', ' order by x.privilege_type) as privileges
        from pg_class c
        join pg_namespace n on n.oid = c.relnamespace
        cross join lateral aclexplode(c.relacl) x
        join pg_roles g on g.oid = x.grantee
        where n.nspname = 'public' and c.relkind in ('r', 'p', 'v', 'm', 'f')
          and g.rolname in (${sql.join(
            roles.map((r) => sql`${r}`),
            sql`, `,
          )})
        group by 1, 2`),
    );
    const actual: Record<string, Record<string, string>> = Object.fromEntries(
      roles.map((r) => [r, {}]),
    );
    for (const r of rows) {
      const forRole = actual[r.role];
      if (forRole) forRole[r.relname] = r.privileges;
    }
    expect(actual).toEqual(ALLOWED);
  });

  it('grants no column privileges, nothing to PUBLIC, and sequences only for use', async () => {
    const rows = await t.owner((tx) =>
      tx.execute<{ what: string }>(sql`
        select c.relname || '.' || a.attname || ' to ' || x.grantee::regrole::text as what
          from pg_attribute a join pg_class c on c.oid = a.attrelid
          join pg_namespace n on n.oid = c.relnamespace
          cross join lateral aclexplode(a.attacl) x
          where n.nspname = 'public' and x.grantee <> c.relowner
        union all
        select c.relname || ' ' || x.privilege_type || ' to PUBLIC'
          from pg_class c join pg_namespace n on n.oid = c.relnamespace
          cross join lateral aclexplode(c.relacl) x
          where n.nspname = 'public' and x.grantee = 0
        union all
        select c.relname || ' ' || x.privilege_type || ' to ' || x.grantee::regrole::text
          from pg_class c join pg_namespace n on n.oid = c.relnamespace
          cross join lateral aclexplode(c.relacl) x
          where n.nspname = 'public' and c.relkind = 'S' and x.grantee <> c.relowner
            and x.privilege_type not in ('USAGE', 'SELECT')`),
    );
    expect(rows.map((r) => r.what)).toEqual([]);
  });

  it('lets only the listed roles run the functions that run as their owner', async () => {
    const rows = await t.owner((tx) =>
      tx.execute<{ fn: string; grantees: string }>(sql`
        select p.proname as fn,
          string_agg(case when x.grantee = 0 then 'PUBLIC' else x.grantee::regrole::text end,
            ', ' order by x.grantee::regrole::text) as grantees
        from pg_proc p join pg_namespace n on n.oid = p.pronamespace
        cross join lateral aclexplode(coalesce(p.proacl, acldefault('f', p.proowner))) x
        where n.nspname = 'public' and p.prosecdef and x.grantee <> p.proowner
        group by 1 order by 1`),
    );
    expect(rows).toEqual([
      { fn: 'kestrel_subject_login', grantees: `${APP_ROLE}, ${SEED_ROLE}, ${SYSTEM_ROLE}` },
    ]);
  });

  it('the context roles are not superusers, cannot bypass RLS, log in, or own anything', async () => {
    const rows = await t.owner((tx) =>
      tx.execute<{ rolname: string; bad: boolean }>(sql`
        select r.rolname, (r.rolsuper or r.rolbypassrls or r.rolcanlogin or r.rolcreaterole
          or r.rolcreatedb or r.rolinherit
          or exists (select 1 from pg_class c where c.relowner = r.oid)) as bad
        from pg_roles r
        where r.rolname in (${APP_ROLE}, ${OPS_ROLE}, ${SUBJECT_ROLE}, ${SEED_ROLE}, ${SYSTEM_ROLE})
        order by 1`),
    );
    expect(rows).toEqual([
      { rolname: APP_ROLE, bad: false },
      { rolname: OPS_ROLE, bad: false },
      { rolname: SEED_ROLE, bad: false },
      { rolname: SUBJECT_ROLE, bad: false },
      { rolname: SYSTEM_ROLE, bad: false },
    ]);
  });

  it('the seed role (the owner at start) makes and changes every table but the secrets', async () => {
    const rows = await t.owner((tx) =>
      tx.execute<{ relname: string; privileges: string | null }>(sql`
        select c.relname,
          (select string_agg(x.privilege_type, ', ' order by x.privilege_type)
             from aclexplode(c.relacl) x where x.grantee = ${SEED_ROLE}::regrole) as privileges
        from pg_class c join pg_namespace n on n.oid = c.relnamespace
        where n.nspname = 'public' and c.relkind in ('r', 'p', 'v', 'm', 'f')
        order by 1`),
    );
    const tables = rows.map((r) => r.relname);
    expect(tables).toContain('customers');
    expect(Object.fromEntries(rows.map((r) => [r.relname, r.privileges]))).toEqual(
      Object.fromEntries(tables.map((n) => [n, n === 'server_secrets' ? null : KEEP])),
    );
  });
});

describe('tables the tenant and subject roles could reach without row-level security', () => {
  const subjectOf = async (customerId: number) => {
    const s = await t.owner((tx) => createSubjectUser(tx, { customerId }));
    return { scope: 'tenant', customerId, subjectId: s.userId } satisfies TxSettings;
  };

  it("a tenant reads no other tenant's sessions, tokens, emails, counters or windows", async () => {
    const subject = await subjectOf(a);
    for (const s of [tenantA(), subject]) {
      for (const table of [
        'sessions',
        'account_tokens',
        'outbox_emails',
        'rate_limits',
        'maintenance_windows',
      ]) {
        expect(await attempt(s, sql`select * from ${sql.identifier(table)}`)).toMatch(
          /permission denied/,
        );
      }
      expect(await attempt(s, sql`delete from rate_limits`)).toMatch(/permission denied/);
      expect(await attempt(s, sql`update sessions set csrf_token = 'x'`)).toMatch(
        /permission denied/,
      );
    }
    // what the tenant context does write: a token for its own customer only
    expect(
      await attempt(
        tenantA(),
        sql`insert into account_tokens (token_hash, purpose, user_type, user_id, customer_id, expires_at)
            values ('a-token', 'claim', 'SubjectUser', 1, ${b}, now())`,
      ),
    ).toMatch(/row-level security/);
  });

  it('no context reads or writes the installation secrets (read as the owner at start)', async () => {
    const ops: TxSettings = { scope: 'all', customerId: null };
    const system: TxSettings = { scope: 'system', customerId: null };
    for (const s of [ops, system, tenantA(), await subjectOf(a)]) {
      expect(await attempt(s, sql`select * from server_secrets`)).toMatch(/permission denied/);
      expect(
        await attempt(s, sql`insert into server_secrets (name, value) values ('x', 'y')`),
      ).toMatch(/permission denied/);
    }
  });

  it("a subject reads no staff secrets, processes or roles; a tenant can't change its customer", async () => {
    const subject = await subjectOf(a);
    expect(
      await attempt(subject, sql`select password_hash, totp_secret from product_users`),
    ).toMatch(/permission denied/);
    for (const table of ['processes', 'roles', 'product_user_roles', 'process_requirements']) {
      expect(await attempt(subject, sql`select * from ${sql.identifier(table)}`)).toMatch(
        /permission denied/,
      );
    }
    expect(await attempt(tenantA(), sql`update customers set name = 'Mine now'`)).toMatch(
      /permission denied/,
    );
    expect(
      await attempt(
        tenantA(),
        sql`insert into customer_entitlements (customer_id, entitlement) values (${a}, 'cycles')`,
      ),
    ).toMatch(/permission denied/);
  });

  it("the ops context reaches none of the system's tables: sessions, tokens, limits, callbacks, payments", async () => {
    const ops: TxSettings = { scope: 'all', customerId: null };
    for (const table of ['sessions', 'account_tokens', 'rate_limits', 'check_callback_inbox']) {
      expect(await attempt(ops, sql`select * from ${sql.identifier(table)}`)).toMatch(
        /permission denied/,
      );
    }
    expect(await attempt(ops, sql`update sessions set csrf_token = 'x'`)).toMatch(
      /permission denied/,
    );
    expect(
      await attempt(
        ops,
        sql`insert into outbox_emails ("to", subject, text) values ('x', 'y', 'z')`,
      ),
    ).toMatch(/permission denied/);
    expect(await attempt(ops, sql`update payment_intents set status = status`)).toMatch(
      /permission denied/,
    );
    expect(await attempt(ops, sql`update product_users set password_hash = ''`)).toMatch(
      /permission denied/,
    );
    // what ops screens do read and write
    expect(await attempt(ops, sql`select count(*) from outbox_emails`)).toBe('allowed');
    expect(await attempt(ops, sql`delete from maintenance_windows where id = -1`)).toBe('allowed');
  });

  it('the contexts the server uses still work', async () => {
    const system: TxSettings = { scope: 'system', customerId: null };
    expect(await attempt(system, sql`select count(*) from sessions`)).toBe('allowed');
    expect(await attempt(system, sql`delete from rate_limits where key = 'none'`)).toBe('allowed');
    expect(
      await attempt(
        tenantA(),
        sql`insert into account_tokens (token_hash, purpose, user_type, user_id, customer_id, expires_at)
            values ('a-token', 'claim', 'SubjectUser', 1, ${a}, now())`,
      ),
    ).toBe('allowed');
  });
});

describe.runIf(process.env.DATABASE_URL)('the serving login on PostgreSQL', () => {
  it('is not a superuser, cannot bypass RLS, owns nothing and can only become the four roles', async () => {
    const rows = await t.db.readInline(
      { scope: 'system', customerId: null },
      `select session_user::text as login, r.rolsuper as super, r.rolbypassrls as bypass,
         r.rolinherit as inherit, r.rolcreaterole or r.rolcreatedb as creates,
         (select count(*)::int from pg_class c where c.relowner = r.oid) as owned,
         (select string_agg(g.rolname, ',' order by g.rolname) from pg_auth_members m
            join pg_roles g on g.oid = m.roleid where m.member = r.oid) as member_of,
         (select count(*)::int from pg_class c, aclexplode(c.relacl) x where x.grantee = r.oid)
           as direct_grants
       from pg_roles r where r.rolname = session_user`,
    );
    expect(rows[0]).toEqual({
      login: 'kestrel_login',
      super: false,
      bypass: false,
      inherit: false,
      creates: false,
      owned: 0,
      member_of: [APP_ROLE, OPS_ROLE, SUBJECT_ROLE, SYSTEM_ROLE].sort().join(','),
      direct_grants: 0,
    });
    expect(await servingRoleWarnings(t.db)).toEqual([]);
  });

  it('the migrations make a login what it must be, idempotently and when two start at once', async () => {
    const name = `kestrel_lt_${process.pid}`;
    await t.db.ownerExec(`DROP ROLE IF EXISTS ${name}`);
    // a login made by hand with too much: inheriting, creating databases
    await t.db.ownerExec(`CREATE ROLE ${name} LOGIN INHERIT CREATEDB`);
    try {
      await Promise.all([
        t.db.ownerExec(loginRoleSql(name, "it's secret")),
        t.db.ownerExec(loginRoleSql(name, "it's secret")),
      ]);
      await t.db.ownerExec(loginRoleSql(name, null));
      const rows = await t.owner((tx) =>
        tx.execute<Record<string, unknown>>(sql`
          select r.rolcanlogin as login, r.rolsuper or r.rolbypassrls or r.rolinherit
              or r.rolcreatedb or r.rolcreaterole as excess,
            (select string_agg(g.rolname, ',' order by g.rolname) from pg_auth_members m
               join pg_roles g on g.oid = m.roleid where m.member = r.oid) as member_of
          from pg_roles r where r.rolname = ${name}`),
      );
      expect(rows).toEqual([
        {
          login: true,
          excess: false,
          member_of: [APP_ROLE, OPS_ROLE, SUBJECT_ROLE, SYSTEM_ROLE].sort().join(','),
        },
      ]);
    } finally {
      await t.db.ownerExec(`DROP ROLE IF EXISTS ${name}`);
    }
    expect(() => loginRoleSql('Robert"; drop table', null)).toThrow(/Unusable/);
  });

  it('RESET ROLE inside a tenant transaction no longer sees other tenants', async () => {
    const seen = await failure(
      t.db.transaction(tenantA(), async (tx) => {
        await tx.execute(sql`reset role`);
        return tx.execute(sql`select kind from flags`);
      }),
    );
    expect(seen).toMatch(/permission denied/);
    const sessionsSeen = await failure(
      t.db.transaction(tenantA(), async (tx) => {
        await tx.execute(sql`reset role`);
        return tx.execute(sql`select csrf_token from sessions`);
      }),
    );
    expect(sessionsSeen).toMatch(/permission denied/);
  });

  it('warns when the serving connection is the superuser that owns the tables', async () => {
    const owner = t.ownerDatabase();
    const warnings = await servingRoleWarnings(owner);
    expect(warnings.join('\n')).toMatch(/superuser/);
    expect(warnings.join('\n')).toMatch(/owns \d+ tables/);
  });
});
