// @postgres: the generic plans of node-postgres' prepared statements (plan_cache_mode) on a server
//
// The case list is prepared once per shape and planned once for every customer (a generic plan,
// decision 006), from the average customer's row counts (issue 28). A page must read only its own
// rows' subjects whatever the customer's size: here 200 customers of 20 cases and one of 3,000,
// the large customer's page explained (ANALYZE) under a generic plan, and the rows read from
// `subjects` counted over every node (a plain join read all 3,000 of its subjects per page).
import { fillPlaceholders, sql } from 'drizzle-orm';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createTestDatabase } from '../../../test/helpers.js';
import { type Database, txQuery } from '../../db/connection.js';
import { systemActor } from '../../platform/context.js';
import { caseListConditions, caseListQuery, caseOrdering } from './cases.repo.js';

let db: Database;
let drop: () => Promise<void>;
let large: number;

beforeAll(async () => {
  const test = await createTestDatabase();
  db = test.db;
  drop = test.drop;
  await db.ownerExec(`
    insert into customers (name) select 'Small ' || g from generate_series(1, 200) g;
    insert into customers (name) values ('Large');
    insert into processes (customer_id, name) select id, 'Check' from customers;
    create temporary table people as
      select c.id as c, 'p' || c.id || '-' || g || '@example.test' as e, 'Ada' || g as f,
             (array['Hartley', 'Byron', 'Smith', 'Jones'])[1 + g % 4] || g as l
        from customers c,
             generate_series(1, case when c.name = 'Large' then 3000 else 20 end) g;
    insert into subject_users (email) select e from people;
    insert into subjects (customer_id, user_id, email, first_name, last_name)
      select p.c, u.id, p.e, p.f, p.l from people p join subject_users u on u.email = p.e;
    insert into cases (customer_id, process_id, subject_id, state)
      select s.customer_id, pr.id, s.id, 'in-progress'
        from subjects s join processes pr on pr.customer_id = s.customer_id;
    analyze;
  `);
  const { rows } = await db.ownerQuery(`select id from customers where name = 'Large'`);
  large = Number(rows[0]?.id);
}, 120_000);

afterAll(async () => {
  await drop?.();
});

interface PlanNode {
  'Relation Name'?: string;
  'Actual Rows'?: number;
  'Actual Loops'?: number;
  Plans?: PlanNode[];
}

/** Rows the plan's nodes read from `relation` (every scan node of it, over all its loops). */
function rowsRead(node: PlanNode, relation: string): number {
  const own =
    node['Relation Name'] === relation
      ? (node['Actual Rows'] ?? 0) * (node['Actual Loops'] ?? 1)
      : 0;
  return own + (node.Plans ?? []).reduce((n, child) => n + rowsRead(child, relation), 0);
}

const literal = (v: unknown) =>
  typeof v === 'string' ? `'${v.replaceAll("'", "''")}'` : String(v);

/** The list's statement for `query` and `ordering`, prepared and run under a generic plan. */
async function explainGeneric(query: Record<string, string>, ordering?: string) {
  return db.transaction({ scope: 'tenant', customerId: large }, async (tx) => {
    const where = caseListConditions(query, { ...systemActor, customerId: large });
    const order = caseOrdering(ordering);
    const built = caseListQuery(
      tx,
      where,
      order.order,
      sql.placeholder('limit'),
      sql.placeholder('offset'),
    ).toSQL();
    const params = fillPlaceholders(built.params, { ...where.values, limit: 25, offset: 25 });
    await txQuery(tx, 'set local plan_cache_mode = force_generic_plan', []);
    await txQuery(tx, `prepare case_list_plan_test as ${built.sql}`, []);
    try {
      const { rows } = await txQuery(
        tx,
        `explain (analyze, format json) execute case_list_plan_test(${params.map(literal).join(', ')})`,
        [],
      );
      const raw = rows[0]?.['QUERY PLAN'];
      const parsed: unknown = typeof raw === 'string' ? JSON.parse(raw) : raw;
      const first: unknown = Array.isArray(parsed) ? parsed[0] : undefined;
      if (!first || typeof first !== 'object' || !('Plan' in first)) throw new Error('no plan');
      return first.Plan as PlanNode;
    } finally {
      await txQuery(tx, 'deallocate case_list_plan_test', []);
    }
  });
}

it("reads only the page's subjects for a customer far above the average (generic plan)", async () => {
  for (const [query, ordering] of [
    [{}, undefined],
    [{ state: 'in-progress' }, undefined],
    [{}, '-updated_at'],
  ] as const) {
    const plan = await explainGeneric(query, ordering);
    expect({ query, ordering, subjects: rowsRead(plan, 'subjects') }).toEqual({
      query,
      ordering,
      subjects: 25,
    });
  }
}, 60_000);

it('by last name, reads the subjects up to the page and their cases only', async () => {
  const plan = await explainGeneric({}, 'last_name');
  // subjects in name order until the page (rows 26-50) is full, and the page's own 25 lookups
  expect(rowsRead(plan, 'subjects')).toBeLessThan(200);
  expect(rowsRead(plan, 'cases')).toBeLessThan(200);
}, 60_000);
