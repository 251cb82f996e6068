// @postgres: concurrent reads share one message on node-postgres only (ReadBatcher), a pg-only case

import { sql } from 'drizzle-orm';
import pg from 'pg';
import { afterAll, beforeAll, expect, it, vi } from 'vitest';
import { createCustomer, createTestDatabase } from '../../../test/helpers.js';
import { MAX_READ_BATCH } from './read-batch.js';
import type { Database } from './types.js';

// Read-only statements of concurrent requests share one message on PostgreSQL (ReadBatcher):
// each must still run as its own tenant and get its own answer or error. On PGlite the same
// calls run one after another, and the answers must be the same.
let db: Database;
let drop: () => Promise<void>;
const ids: number[] = [];

beforeAll(async () => {
  ({ db, drop } = await createTestDatabase());
  await db.ownerTransaction(async (tx) => {
    for (const name of ['Batch A', 'Batch B', 'Batch C']) {
      ids.push((await createCustomer(tx, { name })).id);
    }
  });
});
afterAll(() => drop());

const idAt = (i: number) => ids[i % ids.length] ?? 0;
const nameOf = (customerId: number) => `Batch ${'ABC'[ids.indexOf(customerId)]}`;

/** Every customer this tenant can see (RLS: only itself), with a per-call marker. */
const visible = (customerId: number, marker: number) =>
  db.transaction({ scope: 'tenant', customerId, readOnly: true }, (tx) =>
    tx
      .select({ id: sql<number>`id`, name: sql<string>`name`, marker: sql<number>`${marker}::int` })
      .from(sql`customers`),
  );

it('many concurrent reads of different tenants each see only their own tenant', async () => {
  const calls = Array.from({ length: 3 * MAX_READ_BATCH + 5 }, (_, i) => visible(idAt(i), i));
  const answers = await Promise.all(calls);
  answers.forEach((rows, i) => {
    expect(rows).toEqual([{ id: idAt(i), name: nameOf(idAt(i)), marker: i }]);
  });
});

it('a failing read among concurrent ones fails alone; the others get their answers', async () => {
  const calls = Array.from({ length: 12 }, (_, i) =>
    i === 5
      ? db.transaction({ scope: 'tenant', customerId: idAt(i), readOnly: true }, (tx) =>
          tx.select({ v: sql<number>`1 / ${0}::int` }).from(sql`(select 1) one`),
        )
      : visible(idAt(i), i),
  );
  const settled = await Promise.allSettled(calls);
  settled.forEach((s, i) => {
    if (i === 5) {
      expect(s.status).toBe('rejected');
      if (s.status === 'rejected') {
        expect(String(s.reason?.cause ?? s.reason)).toMatch(/division by zero/);
      }
    } else {
      expect(s).toEqual({
        status: 'fulfilled',
        value: [{ id: idAt(i), name: nameOf(idAt(i)), marker: i }],
      });
    }
  });
  // and the pool keeps serving
  expect(await visible(idAt(1), 99)).toEqual([{ id: idAt(1), name: nameOf(idAt(1)), marker: 99 }]);
});

it('a write in a read-only transaction is refused even when batched with reads', async () => {
  const write = db.transaction({ scope: 'tenant', customerId: idAt(0), readOnly: true }, (tx) =>
    tx.execute(sql`update customers set name = 'changed'`),
  );
  const reads = [1, 2, 3].map((i) => visible(idAt(i), i));
  await expect(write).rejects.toSatisfy((err) =>
    /read-only transaction/.test(String((err as Error).cause ?? (err as Error).message)),
  );
  for (const [i, rows] of (await Promise.all(reads)).entries()) {
    expect(rows[0]?.marker).toBe(i + 1);
  }
  expect((await visible(idAt(0), 0))[0]?.name).toBe('Batch A');
});

it('reads with object rows (execute) and array rows (select) batch side by side', async () => {
  const objects = ids.map((id) =>
    db.transaction({ scope: 'tenant', customerId: id, readOnly: true }, (tx) =>
      tx.execute(sql`select name from customers`),
    ),
  );
  const arrays = ids.map((id, i) => visible(id, i));
  const named = await Promise.all(objects);
  named.forEach((r, i) => {
    const rows = 'rows' in r ? r.rows : r;
    expect(rows).toEqual([{ name: nameOf(idAt(i)) }]);
  });
  (await Promise.all(arrays)).forEach((rows, i) => {
    expect(rows[0]?.name).toBe(nameOf(idAt(i)));
  });
});

it.runIf(Boolean(process.env.DATABASE_URL))(
  'on PostgreSQL concurrent reads share connections: far fewer checkouts than reads',
  async () => {
    const connect = vi.spyOn(pg.Pool.prototype, 'connect');
    try {
      const n = 2 * MAX_READ_BATCH;
      await Promise.all(Array.from({ length: n }, (_, i) => visible(idAt(i), i)));
      expect(connect.mock.calls.length).toBeGreaterThan(0);
      expect(connect.mock.calls.length).toBeLessThanOrEqual(4);
    } finally {
      connect.mockRestore();
    }
  },
);
