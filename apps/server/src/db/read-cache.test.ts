// @postgres: the read cache over node-postgres' read paths (read-only statements, inlined SQL)

import { afterAll, beforeAll, expect, it } from 'vitest';
import { buildTestApp, createCustomer, type TestApp } from '../../test/helpers.js';
import { flags } from '../modules/flags/flags.table.js';
import type { TxSettings } from './connection.js';

let t: TestApp;
let a: number;
let b: number;

beforeAll(async () => {
  t = await buildTestApp();
  await t.owner(async (tx) => {
    a = (await createCustomer(tx, { name: 'A' })).id;
    b = (await createCustomer(tx, { name: 'B' })).id;
    await tx.insert(flags).values([{ customerId: a, kind: 'x' }]);
  });
});
afterAll(() => t.close());

const COUNT = 'select count(*)::int as n from flags where active';
const tenant = (customerId: number): TxSettings => ({ scope: 'tenant', customerId });
const count = async (customerId: number, ttlMs = 60_000) =>
  Number((await t.db.readCached(tenant(customerId), COUNT, ttlMs))[0]?.n);
/** A row written behind the cache's back: raw SQL that no transaction of this process ran. */
const sneak = (customerId: number) =>
  t.db.readInline(
    { scope: 'tenant', customerId },
    `insert into flags (customer_id, kind) values (${customerId}, 'sneaked') returning id`,
  );

it('reuses an answer until a write of the same customer finishes', async () => {
  expect(await count(a)).toBe(1);
  await sneak(a); // readInline is not tracked: the cached answer stays
  expect(await count(a)).toBe(1);
  expect(Number((await t.db.readInline(tenant(a), COUNT))[0]?.n)).toBe(2);

  // a write transaction of customer b leaves a's answer alone
  await t.db.transaction(tenant(b), (tx) => tx.insert(flags).values({ customerId: b, kind: 'b' }));
  expect(await count(a)).toBe(1);
  expect(await count(b)).toBe(1);

  // a write transaction of customer a drops it
  await t.db.transaction(tenant(a), (tx) => tx.insert(flags).values({ customerId: a, kind: 'y' }));
  expect(await count(a)).toBe(3);
});

it('drops everything on owner writes and reads every time with ttl 0', async () => {
  expect(await count(b)).toBe(1);
  await sneak(b);
  expect(await count(b)).toBe(1);
  expect(await count(b, 0)).toBe(2);
  await t.owner(async () => undefined);
  expect(await count(b)).toBe(2);
});

it('expires after the ttl', async () => {
  // a ttl of seconds: with 50 ms a loaded CI machine took longer than the ttl between two reads
  expect(await count(a, 2000)).toBe(3);
  await sneak(a);
  expect(await count(a, 2000)).toBe(3);
  await new Promise((r) => setTimeout(r, 2100));
  expect(await count(a, 2000)).toBe(4);
});

it('keeps read-only transactions and the anonymous cross-tenant context from invalidating', async () => {
  expect(await count(a)).toBe(4);
  await sneak(a);
  await t.db.transaction({ ...tenant(a), readOnly: true }, (tx) => tx.select().from(flags));
  await t.db.transaction({ scope: 'all', customerId: null }, async () => undefined);
  expect(await count(a)).toBe(4);
  // a user acting across tenants (ops) may touch any customer's rows
  await t.db.transaction({ scope: 'all', customerId: null, userId: 1 }, async () => undefined);
  expect(await count(a)).toBe(5);
});
