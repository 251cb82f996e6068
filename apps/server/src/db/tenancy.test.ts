// @postgres: a transaction's tenant and role must not leak into the next on a pooled connection

import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  buildTestApp,
  createCustomer,
  createSubjectUser,
  type TestApp,
} from '../../test/helpers.js';
import { flags } from '../modules/flags/flags.table.js';
import { subjects } from '../modules/subjects/subjects.table.js';
import { subjectUsers } from '../modules/users/users.table.js';
import { securitySql } from './security.js';

let t: TestApp;
let a: number;
let b: number;

beforeAll(async () => {
  t = await buildTestApp();
  await t.owner(async (tx) => {
    a = (await createCustomer(tx, { name: 'A' })).id;
    b = (await createCustomer(tx, { name: 'B' })).id;
    await tx.insert(flags).values([
      { customerId: a, kind: 'x' },
      { customerId: b, kind: 'y' },
      { customerId: b, kind: 'z' },
    ]);
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

describe('row-level security', () => {
  it('an unfiltered query returns only the current tenant rows', async () => {
    const rows = await t.db.transaction({ scope: 'tenant', customerId: b }, (tx) =>
      tx.select().from(flags),
    );
    expect(rows.map((r) => r.kind).sort()).toEqual(['y', 'z']);
    expect(new Set(rows.map((r) => r.customerId))).toEqual(new Set([b]));
  });

  it('no tenant means no rows', async () => {
    const rows = await t.db.transaction({ scope: 'tenant', customerId: null }, (tx) =>
      tx.select().from(flags),
    );
    expect(rows).toEqual([]);
  });

  it('refuses to write a row of another tenant', async () => {
    expect(
      await failure(
        t.db.transaction({ scope: 'tenant', customerId: a }, (tx) =>
          tx.insert(flags).values({ customerId: b, kind: 'evil' }),
        ),
      ),
    ).toMatch(/row-level security/);
  });

  it('the tenant does not survive into the next transaction on the same connection', async () => {
    const pid = sql`pg_backend_pid()`;
    const first = await t.db.transaction({ scope: 'tenant', customerId: a }, (tx) =>
      tx.execute<{ pid: number; c: string }>(
        sql`select ${pid} as pid, current_setting('app.customer_id', true) as c`,
      ),
    );
    expect(first[0]?.c).toBe(String(a));
    // the cross-tenant context sets no tenant of its own
    const next = await t.db.transaction({ scope: 'all', customerId: null }, (tx) =>
      tx.execute<{ pid: number; c: string | null; u: string }>(
        sql`select ${pid} as pid, current_setting('app.customer_id', true) as c, current_user as u`,
      ),
    );
    // The same connection (PGlite has one; the pool hands back the client just released)...
    expect(next[0]?.pid).toBe(first[0]?.pid);
    // ...with neither the tenant nor the role left over.
    expect(next[0]?.c ?? '').toBe('');
    expect(next[0]?.u).toBe('kestrel_ops');
    const rows = await t.db.transaction({ scope: 'tenant', customerId: null }, (tx) =>
      tx.select().from(flags),
    );
    expect(rows).toEqual([]);
  });

  it('the application role is not a superuser, cannot bypass RLS and owns no table', async () => {
    const rows = await t.db.transaction({ scope: 'tenant', customerId: a }, (tx) =>
      tx.execute<{ u: string; super: boolean; bypass: boolean; owned: number }>(sql`
        select current_user as u, r.rolsuper as super, r.rolbypassrls as bypass,
          (select count(*)::int from pg_tables where tableowner = current_user) as owned
        from pg_roles r where r.rolname = current_user`),
    );
    expect(rows[0]).toEqual({ u: 'kestrel_app', super: false, bypass: false, owned: 0 });
  });

  it('forces RLS on every table with a customer_id column', async () => {
    const rows = await t.owner((tx) =>
      tx.execute<{ relname: string; forced: boolean }>(sql`
        select c.relname, c.relforcerowsecurity as forced from pg_class c
        join pg_namespace n on n.oid = c.relnamespace
        join pg_attribute a on a.attrelid = c.oid and a.attname = 'customer_id'
        where n.nspname = 'public' and c.relkind = 'r'`),
    );
    expect(rows.length).toBeGreaterThan(5);
    expect(rows.filter((r) => !r.forced)).toEqual([]);
  });

  it('audit rows are insert-only for the application role', async () => {
    await t.db.transaction({ scope: 'tenant', customerId: a }, (tx) =>
      tx.execute(sql`insert into audit_actions (customer_id, verb) values (${a}, 'created')`),
    );
    expect(
      await failure(
        t.db.transaction({ scope: 'tenant', customerId: a }, (tx) =>
          tx.execute(sql`update audit_actions set verb = 'deleted'`),
        ),
      ),
    ).toMatch(/permission denied/);
    expect(
      await failure(
        t.db.transaction({ scope: 'all', customerId: null }, (tx) =>
          tx.execute(sql`delete from audit_actions`),
        ),
      ),
    ).toMatch(/permission denied/);
  });

  it('refuses a transaction opened inside another (PGlite would wait for ever)', async () => {
    await expect(
      t.db.transaction({ scope: 'tenant', customerId: a }, () =>
        t.db.transaction({ scope: 'all', customerId: null }, async () => 1),
      ),
    ).rejects.toThrow(/Nested database transaction/);
    // and the database still works afterwards
    expect(await t.db.transaction({ scope: 'tenant', customerId: a }, async () => 2)).toBe(2);
  });

  it('a read-only transaction refuses writes', async () => {
    expect(
      await failure(
        t.db.transaction({ scope: 'tenant', customerId: a, readOnly: true }, (tx) =>
          tx.insert(flags).values({ customerId: a, kind: 'w' }),
        ),
      ),
    ).toMatch(/read-only transaction/);
    const rows = await t.db.transaction({ scope: 'tenant', customerId: a, readOnly: true }, (tx) =>
      tx.select().from(flags),
    );
    expect(rows.length).toBeGreaterThan(0);
  });

  it('a subject sees only its own rows: its login, its records and any table with subject_id', async () => {
    const [s1, s2, s1b] = await t.owner(async (tx) => {
      const one = await createSubjectUser(tx, { customerId: a });
      const two = await createSubjectUser(tx, { customerId: a });
      // the same person held by the other customer: one login, two records
      const again = await createSubjectUser(tx, { customerId: b, email: one.email });
      return [one, two, again];
    });
    if (!s1b || s1b.userId !== s1?.userId) throw new Error('one login per email');
    if (!s1 || !s2) throw new Error('fixture');
    await t.db.ownerExec(`
      CREATE TABLE test_subject_docs (customer_id integer NOT NULL, id serial, subject_id integer,
        PRIMARY KEY (customer_id, id));
      INSERT INTO test_subject_docs (customer_id, subject_id) VALUES
        (${a}, ${s1.id}), (${a}, ${s1.id}), (${a}, ${s2.id}), (${b}, ${s1.id});`);
    await t.db.ownerExec(securitySql);
    const as = (s: { userId: number }) => ({
      scope: 'tenant' as const,
      customerId: a,
      subjectId: s.userId,
    });
    const docs = await t.db.transaction(as(s1), (tx) =>
      tx.execute<{ subject_id: number }>(sql`select subject_id from test_subject_docs`),
    );
    expect(docs.map((d) => d.subject_id)).toEqual([s1.id, s1.id]);
    const people = await t.db.transaction(as(s2), (tx) => tx.select().from(subjectUsers));
    expect(people.map((p) => p.id)).toEqual([s2.userId]);
    const records = await t.db.transaction(as(s1), (tx) => tx.select().from(subjects));
    expect(records.map((r) => r.id)).toEqual([s1.id]);
    // staff see the logins of their own subjects only: not another customer's person
    const logins = await t.db.transaction({ scope: 'tenant', customerId: b }, (tx) =>
      tx.select().from(subjectUsers),
    );
    expect(logins.map((p) => p.id)).toEqual([s1.userId]);
    // staff of the customer see all of them
    const staff = await t.db.transaction({ scope: 'tenant', customerId: a }, (tx) =>
      tx.execute<{ n: number }>(sql`select count(*)::int as n from test_subject_docs`),
    );
    expect(staff[0]?.n).toBe(3);
    expect(
      await failure(
        t.db.transaction(as(s1), (tx) =>
          tx.execute(
            sql`insert into test_subject_docs (customer_id, subject_id) values (${a}, ${s2.id})`,
          ),
        ),
      ),
    ).toMatch(/row-level security|permission denied/);
    // subjects' actions are audited, but they cannot read the customer's audit history
    await t.db.transaction(as(s1), (tx) =>
      tx.execute(sql`insert into audit_actions (customer_id, verb) values (${a}, 'updated')`),
    );
    expect(
      await failure(
        t.db.transaction(as(s1), (tx) =>
          tx.execute<{ n: number }>(sql`select count(*)::int as n from audit_actions`),
        ),
      ),
    ).toMatch(/permission denied/);
  });
});
