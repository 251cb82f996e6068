// @postgres: transactions of every role and tenant at once, on the connections of one pool

import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  buildTestApp,
  createCustomer,
  createSubjectUser,
  type TestApp,
} from '../../test/helpers.js';
import { flags } from '../modules/flags/flags.table.js';
import type { Tx, TxSettings } from './connection.js';
import { APP_ROLE, OPS_ROLE, SUBJECT_ROLE, SYSTEM_ROLE } from './driver/roles.js';

// A pooled PostgreSQL connection serves one transaction after another, each with its own role and
// tenant (SET LOCAL ROLE, SET LOCAL app.*). Whatever ran on it just before (another tenant, a
// subject, the system, a statement that failed, a transaction rolled back), a transaction sees
// only its own role, settings and rows. On PGlite (one connection) they run one after another.

let t: TestApp;
let a: number;
let b: number;
let subject: number;

beforeAll(async () => {
  t = await buildTestApp();
  await t.owner(async (tx) => {
    a = (await createCustomer(tx, { name: 'A' })).id;
    b = (await createCustomer(tx, { name: 'B' })).id;
    subject = (await createSubjectUser(tx, { customerId: a })).userId;
    await tx.insert(flags).values([
      { customerId: a, kind: 'x' },
      { customerId: b, kind: 'y' },
      { customerId: b, kind: 'z' },
    ]);
  });
});
afterAll(() => t.close());

interface Seen {
  role: string;
  customer: string;
  subject: string;
  pid: number;
  /** The flags the transaction's row-level security lets it count (tenant staff only). */
  flags: number | null;
}

/** What a transaction with `s` must see, and how it ends. */
interface Case {
  settings: TxSettings;
  role: string;
  flags: number | null;
  end: 'commit' | 'failed statement' | 'thrown';
}

const pause = () => new Promise((r) => setTimeout(r, Math.floor(Math.random() * 4)));

function cases(n: number): Case[] {
  const kinds: Omit<Case, 'end'>[] = [
    { settings: { scope: 'tenant', customerId: a, userId: 1 }, role: APP_ROLE, flags: 1 },
    { settings: { scope: 'tenant', customerId: b, readOnly: true }, role: APP_ROLE, flags: 2 },
    {
      settings: { scope: 'tenant', customerId: a, subjectId: subject, userId: subject },
      role: SUBJECT_ROLE,
      flags: null,
    },
    { settings: { scope: 'all', customerId: null }, role: OPS_ROLE, flags: null },
    { settings: { scope: 'system', customerId: null }, role: SYSTEM_ROLE, flags: null },
    { settings: { scope: 'tenant', customerId: null }, role: APP_ROLE, flags: 0 },
  ];
  const ends: Case['end'][] = ['commit', 'failed statement', 'thrown'];
  return Array.from({ length: n }, (_, i) => {
    const kind = kinds[i % kinds.length];
    if (!kind) throw new Error('no kind');
    return { ...kind, end: ends[Math.floor(i / kinds.length) % ends.length] ?? 'commit' };
  });
}

/** Runs one case: reads what it is twice (another transaction may run in between), then ends. */
async function run(c: Case): Promise<{ seen: Seen[]; ended: string }> {
  const seen: Seen[] = [];
  const read = async (tx: Tx) => {
    const [row] = await tx.execute<{
      role: string;
      c: string | null;
      s: string | null;
      pid: number;
    }>(
      sql`select current_user as role, current_setting('app.customer_id', true) as c,
            current_setting('app.subject_id', true) as s, pg_backend_pid() as pid`,
    );
    const counted =
      c.flags === null
        ? null
        : Number((await tx.select({ n: sql<number>`count(*)::int` }).from(flags))[0]?.n);
    seen.push({
      role: String(row?.role),
      customer: row?.c ?? '',
      subject: row?.s ?? '',
      pid: Number(row?.pid),
      flags: counted,
    });
  };
  const ended = await t.db
    .transaction(c.settings, async (tx) => {
      await read(tx);
      await pause();
      await read(tx);
      if (c.end === 'failed statement') await tx.execute(sql`select 1 / 0`);
      if (c.end === 'thrown') throw new Error('rolled back');
    })
    .then(
      () => 'commit',
      (err: unknown) => {
        const cause = err instanceof Error && err.cause instanceof Error ? err.cause : err;
        return cause instanceof Error && /division by zero/.test(cause.message)
          ? 'failed statement'
          : cause instanceof Error && cause.message === 'rolled back'
            ? 'thrown'
            : `unexpected: ${String(cause)}`;
      },
    );
  return { seen, ended };
}

const expected = (c: Case) => ({
  role: c.role,
  customer: c.settings.customerId === null ? '' : String(c.settings.customerId),
  subject: c.settings.subjectId ? String(c.settings.subjectId) : '',
  flags: c.flags,
});

describe('transactions sharing pooled connections', () => {
  it('each sees only its own role, tenant and rows, whatever ran on its connection before', async () => {
    const all = cases(72);
    const pids = new Set<number>();
    for (let round = 0; round < 2; round++) {
      const results = await Promise.all(all.map(run));
      results.forEach(({ seen, ended }, i) => {
        const c = all[i];
        if (!c) throw new Error('no case');
        expect({ i, ended }).toEqual({ i, ended: c.end });
        for (const s of seen) {
          pids.add(s.pid);
          const { pid: _, ...what } = s;
          expect({ i, ...what }).toEqual({ i, ...expected(c) });
        }
      });
    }
    // PostgreSQL: the pool's several connections each served many of them in turn
    if (process.env.DATABASE_URL) expect(pids.size).toBeGreaterThan(1);
    else expect(pids.size).toBe(1);
  });

  it('leaves nothing behind: afterwards every connection begins with no tenant', async () => {
    await Promise.all(cases(30).map(run));
    const after = await Promise.all(
      Array.from({ length: 10 }, () =>
        t.db.transaction({ scope: 'tenant', customerId: null }, async (tx) => {
          const [row] = await tx.execute<{ c: string | null; s: string | null; u: string }>(
            sql`select current_setting('app.customer_id', true) as c,
                  current_setting('app.subject_id', true) as s, current_user as u`,
          );
          const n = (await tx.select({ n: sql<number>`count(*)::int` }).from(flags))[0]?.n;
          return { c: row?.c ?? '', s: row?.s ?? '', u: row?.u, n: Number(n) };
        }),
      ),
    );
    expect(after).toEqual(after.map(() => ({ c: '', s: '', u: APP_ROLE, n: 0 })));
  });
});
