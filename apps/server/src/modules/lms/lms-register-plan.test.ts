// @postgres: the planner's choice of index on a seeded table differs between PGlite's build and a PostgreSQL server
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCustomer, createSubjectUser, createTestDatabase } from '../../../test/helpers.js';
import type { Database, Tx } from '../../db/connection.js';
import { executePreparedRows, txQuery } from '../../db/connection.js';
import { drizzleOver } from '../../db/driver/tx.js';
import { registerPage } from './lms-applications.service.js';

/*
 * The council's register of refusals, suspensions and revocations (issue 32, review L3) is
 * filtered, merged, ordered, paged and counted in SQL: a page reads the refusals and the
 * suspensions and revocations by index (never every licence event or application of the
 * council), and only a page of rows comes back. Seeded: 4,000 licences with 24,000 other events
 * (issues, reinstatements, surrenders) and 5,000 granted applications beside 60 suspensions,
 * 30 revocations and 45 refusals (ANALYZEd); the statements the real read sends are recorded and
 * explained as the request's role and tenant would run them, sequential scans off.
 */

let db: Database;
let drop: () => Promise<void>;
let council: number;

interface PlanNode {
  'Node Type': string;
  'Relation Name'?: string;
  'Index Name'?: string;
  Plans?: PlanNode[];
}

const nodesOf = (n: PlanNode): PlanNode[] => [n, ...(n.Plans ?? []).flatMap(nodesOf)];

/** The statements `fn` sends through its handle, run in `tx` and kept. */
async function recorded(tx: Tx, fn: (rec: Tx) => Promise<unknown>) {
  const sent: { text: string; params: unknown[] }[] = [];
  const rec = drizzleOver({
    async query(text, params, rowMode) {
      sent.push({ text, params });
      if (rowMode === 'array') {
        return {
          rows: await executePreparedRows(tx, { getQuery: () => ({ sql: text, params }) }, {}),
        };
      }
      return txQuery(tx, text, params);
    },
  });
  await fn(rec);
  return sent;
}

beforeAll(async () => {
  ({ db, drop } = await createTestDatabase());
  await db.ownerTransaction(async (tx) => {
    council = (await createCustomer(tx, { name: 'Seeded Council' })).id;
    const people: number[] = [];
    for (const [i, name] of ['Ava', 'Ben', 'Cal', 'Dee'].entries()) {
      const s = await createSubjectUser(tx, {
        customerId: council,
        firstName: name,
        lastName: 'Holder',
        dob: `198${i}-01-0${i + 1}`,
      });
      people.push(s.id);
    }
    const [first, , , last] = people;
    await tx.execute(sql`
      with g as (
        insert into licence_groups (customer_id, name) values (${council}, 'Taxi') returning id
      ), sg as (
        insert into licence_sub_groups (customer_id, group_id, name, code)
        select ${council}, id, 'Driver', 'HCD' from g returning id
      ), d as (
        insert into licence_definitions (customer_id, sub_group_id, name, duration_years, fee_pence)
        select ${council}, id, 'Driver', 3, 0 from sg returning id
      )
      insert into lms_application_portals (customer_id, definition_id, title, fee_pence)
      select ${council}, id, 'Apply', 0 from d`);
    await tx.execute(sql`
      insert into licences (customer_id, definition_id, holder_id, number, issue_date, expiry_date)
      select ${council}, d.id, ${first}::int + (g % 4), 'HCD/2026/' || g, '2026-01-01', '2028-12-31'
      from licence_definitions d, generate_series(1, 4000) g where d.customer_id = ${council}`);
    await tx.execute(sql`
      insert into licence_events (customer_id, licence_id, action, to_status, reason, created_at)
      select ${council}, l.id, a.action, a.status, 'Reason ' || l.id,
             now() - (l.id % 700) * interval '1 day' - a.n * interval '1 minute'
      from licences l
      cross join (values (1, 'issue', 'active'), (2, 'reinstate', 'active'),
                         (3, 'issue', 'active'), (4, 'reinstate', 'active'),
                         (5, 'issue', 'active'), (6, 'surrender', 'surrendered')) a(n, action, status)
      where l.customer_id = ${council}`);
    await tx.execute(sql`
      insert into licence_events (customer_id, licence_id, action, to_status, reason, created_at)
      select ${council}, l.id, case when l.id % 3 = 0 then 'revoke' else 'suspend' end,
             case when l.id % 3 = 0 then 'revoked' else 'suspended' end, 'On the register',
             now() - (l.id % 90) * interval '1 day'
      from licences l where l.customer_id = ${council} and l.id % 44 = 0 and l.holder_id <> ${last}`);
    await tx.execute(sql`
      insert into lms_applications
        (customer_id, portal_id, definition_id, subject_id, kind, state, fee_pence, tax_check_need,
         decision_reason, decided_at)
      select ${council}, p.id, p.definition_id, ${first}::int + (g % 4), 'new',
             case when g % 111 = 0 then 'refused' else 'granted' end, 0, 'confirm',
             case when g % 111 = 0 then 'Refused ' || g else '' end,
             now() - (g % 500) * interval '1 day'
      from lms_application_portals p, generate_series(1, 5000) g
      where p.customer_id = ${council}`);
  });
  await db.ownerExec('analyze licences, licence_events, lms_applications, subjects');
});
afterAll(() => drop());

describe("the council's register is paged and counted in SQL, by index", () => {
  it('a page of the register and its count: the right rows, each table read by an index', async () => {
    const settings = { scope: 'tenant' as const, customerId: council };
    const { out, plans, expected } = await db.transaction(settings, async (tx) => {
      await txQuery(tx, 'set local enable_seqscan = off', []);
      let out: Awaited<ReturnType<typeof registerPage>> = { count: 0, results: [] };
      const sent = await recorded(tx, async (rec) => {
        out = await registerPage(
          rec,
          { pageSize: 20, offset: 40 },
          { q: null, dob: null, licenceNumber: null },
        );
      });
      const plans: PlanNode[] = [];
      for (const s of sent) {
        const rows = (await txQuery(tx, `explain (format json) ${s.text}`, s.params)).rows;
        const raw = rows[0]?.['QUERY PLAN'];
        const parsed: unknown = typeof raw === 'string' ? JSON.parse(raw) : raw;
        const first = Array.isArray(parsed) ? (parsed[0] as { Plan: PlanNode }) : undefined;
        if (!first) throw new Error(`no plan for ${s.text}`);
        plans.push(first.Plan);
      }
      const [n] = (
        await txQuery(
          tx,
          `select (select count(*) from licence_events where action in ('suspend', 'revoke'))
                + (select count(*) from lms_applications where state = 'refused') as n`,
          [],
        )
      ).rows;
      return { out, plans, expected: Number(n?.n) };
    });
    expect(expected).toBeGreaterThan(100);
    expect(out.count).toBe(expected);
    expect(out.results).toHaveLength(20);
    const times = out.results.map((r) => r.date);
    expect([...times].sort().reverse()).toEqual(times);
    const nodes = plans.flatMap(nodesOf);
    for (const table of ['licence_events', 'lms_applications', 'licences', 'subjects']) {
      const reads = nodes.filter((n) => n['Relation Name'] === table);
      expect(reads.length, table).toBeGreaterThan(0);
      for (const r of reads) expect(r['Node Type'], table).not.toBe('Seq Scan');
    }
    // the suspensions and revocations by their own index, not every event of the council
    expect(nodes.some((n) => n['Index Name'] === 'licence_events_register_idx')).toBe(true);
    // the page is limited in SQL: a Limit over the merged and ordered union
    expect(plans.some((p) => nodesOf(p).some((n) => n['Node Type'] === 'Limit'))).toBe(true);
  });
});
