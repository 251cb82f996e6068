// The embedded database's two gaps a long job exposed (CI's e2e, issue 28): requests starved
// behind a loop of transactions, and a planner with no statistics. PGlite only: the file is not
// in the PostgreSQL set (decision 022).

import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { buildTestApp, createCustomer, type TestApp } from '../../test/helpers.js';
import { refreshStatistics } from './statistics.js';

let t: TestApp;
let acme: number;

beforeAll(async () => {
  t = await buildTestApp();
  acme = await t.owner(async (tx) => (await createCustomer(tx, { name: 'Acme' })).id);
});
afterAll(() => t.close());

it('lets waiting I/O in between transactions: a loop of them does not hold the event loop', async () => {
  let done = 0;
  let doneWhenIoRan = -1;
  const loop = (async () => {
    for (let i = 0; i < 40; i += 1) {
      await t.db.transaction({ scope: 'tenant', customerId: acme }, (tx) =>
        tx.execute(sql`select count(*) from subjects`),
      );
      done += 1;
    }
  })();
  // what a socket's data does: a callback of the event loop's next turn
  setImmediate(() => {
    doneWhenIoRan = done;
  });
  await loop;
  expect(doneWhenIoRan).toBeGreaterThanOrEqual(0);
  expect(doneWhenIoRan).toBeLessThan(3);
});

it("refreshes the planner's statistics of the tables named (no autovacuum on PGlite)", async () => {
  await t.owner((tx) =>
    tx.execute(sql`insert into flags (customer_id, kind)
        select ${acme}, 'statistics' from generate_series(1, 300)`),
  );
  const tuples = () =>
    t.owner(async (tx) => {
      const [r] = await tx.execute<{ n: number }>(
        sql`select reltuples::int as n from pg_class where relname = 'flags'`,
      );
      return Number(r?.n);
    });
  expect(await tuples()).toBeLessThan(300);
  await refreshStatistics(t.db, ['flags']);
  expect(await tuples()).toBe(300);
});
