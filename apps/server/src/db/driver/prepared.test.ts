// @postgres: node-postgres prepares each text once per pooled connection; PGlite runs it directly

import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createCustomer, createTestDatabase } from '../../../test/helpers.js';
import type { Database } from './types.js';

// The PostgreSQL driver prepares each query text once per connection (PREPARE, then EXECUTE in
// the transaction's single message); these check that the answers stay right for every tenant and
// that a text PostgreSQL cannot prepare still runs. On PGlite the same calls run directly.
let db: Database;
let drop: () => Promise<void>;
const ids: number[] = [];

beforeAll(async () => {
  ({ db, drop } = await createTestDatabase());
  await db.ownerTransaction(async (tx) => {
    for (const name of ['Prepared A', 'Prepared B', 'Prepared C']) {
      ids.push((await createCustomer(tx, { name })).id);
    }
  });
});
afterAll(() => drop());

const nameOf = (customerId: number, readOnly: boolean) =>
  db.transaction({ scope: 'tenant', customerId, readOnly }, async (tx) => {
    const rows = await tx
      .select({ name: sql<string>`name`, n: sql<number>`${customerId}::int` })
      .from(sql`customers`)
      .where(sql`id = ${customerId}`);
    return rows[0];
  });

it('the same prepared text answers each tenant with its own rows, many times over', async () => {
  for (let round = 0; round < 8; round++) {
    for (const [i, id] of ids.entries()) {
      const readOnly = round % 2 === 0;
      expect(await nameOf(id, readOnly)).toEqual({ name: `Prepared ${'ABC'[i]}`, n: id });
    }
  }
  // Row-level security still applies to the prepared plan: another tenant's id finds nothing.
  const [a, b] = ids;
  const foreign = await db.transaction({ scope: 'tenant', customerId: a ?? 0 }, (tx) =>
    tx
      .select({ id: sql<number>`id` })
      .from(sql`customers`)
      .where(sql`id = ${b ?? 0}`),
  );
  expect(foreign).toEqual([]);
});

it('a text PostgreSQL cannot prepare (a parameter of no inferable type) still runs', async () => {
  for (let i = 0; i < 3; i++) {
    const out = await db.transaction({ scope: 'tenant', customerId: ids[0] ?? 0 }, async (tx) => {
      const r = await tx.select({ v: sql<string>`${`value ${i}`}` }).from(sql`(select 1) one`);
      return r[0]?.v;
    });
    expect(out).toBe(`value ${i}`);
  }
});

it('a failing statement rolls back and the connection keeps serving', async () => {
  await expect(
    db.transaction({ scope: 'tenant', customerId: ids[0] ?? 0 }, (tx) =>
      tx.select({ v: sql<number>`1 / ${0}::int` }).from(sql`(select 1) one`),
    ),
  ).rejects.toSatisfy(
    (err) => err instanceof Error && /division by zero/.test(String(err.cause ?? err.message)),
  );
  expect(await nameOf(ids[1] ?? 0, true)).toEqual({ name: 'Prepared B', n: ids[1] });
});
