// @postgres: the planner's choice of index on a seeded table differs between PGlite's build and a PostgreSQL server
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCustomer, createTestDatabase } from '../../../test/helpers.js';
import type { Database, Tx } from '../../db/connection.js';
import { executePreparedRows, txQuery } from '../../db/connection.js';
import { drizzleOver } from '../../db/driver/tx.js';
import { subscriptionChargeAttempts } from '../payments/case-payment.js';

/*
 * Reading a billing period's attempts (issue 31, review B1): the billing list the web polls every
 * 1.5 s while a period is pending reads each period's attempts by an index keyed by the period,
 * not by scanning every payment of no case the customer ever made. The statements the real read
 * sends are recorded and explained, as the request's role and tenant would run them, on a
 * customer with 20,000 periods' payments (ANALYZEd): each node over product_payments is an index
 * read whose condition names the period.
 */

let db: Database;
let drop: () => Promise<void>;
let seeded: number;

interface PlanNode {
  'Node Type': string;
  'Relation Name'?: string;
  'Index Name'?: string;
  'Index Cond'?: string;
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
    seeded = (await createCustomer(tx, { name: 'Seeded' })).id;
    // 20,000 billing periods' first attempts and 500 cases' charges of one customer
    await tx.execute(sql`
      insert into product_payments
        (customer_id, description, amount_pence, provider, status, attempt, idempotency_key)
      select ${seeded}, 'period ' || g, 1300, 'simulator', 'failed', 1,
             'kestrel-subscription-' || ${seeded} || '-' || g
      from generate_series(1, 20000) g`);
    await tx.execute(sql`
      insert into product_payments
        (customer_id, case_id, description, amount_pence, provider, status, attempt, idempotency_key)
      select ${seeded}, g, 'case ' || g, 1300, 'simulator', 'succeeded', 1,
             'kestrel-case-' || ${seeded} || '-' || g || '-1'
      from generate_series(1, 500) g`);
  });
  await db.ownerExec('analyze product_payments');
});
afterAll(() => drop());

describe("a billing period's attempts are read by an index keyed by the period", () => {
  it('the read finds the periods asked for, each node over product_payments an index read', async () => {
    const settings = { scope: 'tenant' as const, customerId: seeded };
    const ids = [7, 8_000, 19_999];
    const { found, plans } = await db.transaction(settings, async (tx) => {
      let found = new Map<number, unknown>();
      const sent = await recorded(tx, async (rec) => {
        found = await subscriptionChargeAttempts(rec, seeded, ids);
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
      return { found, plans };
    });
    expect([...found.keys()].sort((a, b) => a - b)).toEqual(ids);
    expect(plans.length).toBeGreaterThan(0);
    const reads = plans.flatMap(nodesOf).filter((n) => n['Relation Name'] === 'product_payments');
    expect(reads.length).toBeGreaterThan(0);
    for (const n of reads) {
      expect([n['Node Type'], n['Index Name']]).toEqual([
        expect.stringMatching(/^(Index Scan|Index Only Scan|Bitmap Heap Scan)$/),
        n['Node Type'] === 'Bitmap Heap Scan'
          ? undefined
          : 'product_payments_subscription_charge_idx',
      ]);
    }
    const indexReads = plans
      .flatMap(nodesOf)
      .filter((n) => n['Index Name'] === 'product_payments_subscription_charge_idx');
    expect(indexReads.length).toBeGreaterThan(0);
    for (const n of indexReads) expect(n['Index Cond']).toContain('subscription_charge_id');
  });
});
