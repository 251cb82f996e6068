// @postgres: the job queue on PostgreSQL: transactional enqueue, NOTIFY wakes, two processes

import { eq, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  anonymous,
  buildTestApp,
  createAdminAndViewer,
  createCustomer,
  createProductUser,
  login,
  type TestApp,
} from '../../test/helpers.js';
import type { AppDeps } from '../app-deps.js';
import { cronEvery } from '../jobs/housekeeping.js';
import { enqueue, JOBS_CHANNEL, type JobKind, jobOf, queueJobs, WAKE_THROTTLE_MS } from './jobs.js';

/** What the test kinds did: (kind, n, which app ran it). */
const runs: { kind: string; n: number; by: 'first' | 'second' }[] = [];
let first: FastifyInstance;
const who = (deps: AppDeps) => (deps === first.deps ? 'first' : 'second');
const payload = z.object({ n: z.number().int() });

const countKind: JobKind<{ n: number }, AppDeps> = {
  name: 'test-count',
  payload,
  retry: { limit: 0, delaySeconds: 0, backoff: false },
  expireInSeconds: 30,
  async handle(data, deps) {
    runs.push({ kind: 'test-count', n: data.n, by: who(deps) });
  },
};

/** Fails its first two runs of each payload, then succeeds. */
const flakyKind: JobKind<{ n: number }, AppDeps> = {
  name: 'test-flaky',
  payload,
  retry: { limit: 3, delaySeconds: 1, backoff: true },
  expireInSeconds: 30,
  async handle(data, deps) {
    runs.push({ kind: 'test-flaky', n: data.n, by: who(deps) });
    if (runs.filter((r) => r.kind === 'test-flaky' && r.n === data.n).length <= 2) {
      throw new Error(`flaky failure ${data.n}`);
    }
  },
};

/** Always fails, with one retry: then it is dead. */
const deadKind: JobKind<{ n: number }, AppDeps> = {
  name: 'test-dead',
  payload,
  retry: { limit: 1, delaySeconds: 1, backoff: false },
  expireInSeconds: 30,
  async handle(data) {
    throw new Error(`provider down ${data.n}`);
  },
};

const all = { scope: 'all', customerId: null } as const;
let t: TestApp;
let acme: number;

beforeAll(async () => {
  t = await buildTestApp({
    config: { jobPollingSeconds: 0.5 },
    extraJobs: [countKind, flakyKind, deadKind],
  });
  first = t.app;
  acme = await t.owner(async (tx) => {
    const c = await createCustomer(tx, { name: 'Acme' });
    await createAdminAndViewer(tx, c.id);
    await createProductUser(tx, { customerId: null, username: 'ops@k.test', roles: ['ops'] });
    return c.id;
  });
});
afterAll(() => t.close());

async function jobsOf(name: string) {
  return t.owner((tx) => tx.select().from(queueJobs).where(eq(queueJobs.name, name)));
}

async function until<T>(what: () => Promise<T>, ok: (v: T) => boolean, ms = 20_000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const v = await what();
    if (ok(v)) return v;
    if (Date.now() > end) throw new Error(`timed out: ${JSON.stringify(v)}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

describe('transactional enqueue', () => {
  it('a job enqueued in a transaction that rolls back does not exist', async () => {
    await expect(
      t.db.transaction(all, async (tx) => {
        await enqueue(tx, jobOf(countKind, { n: -1 }));
        throw new Error('roll back');
      }),
    ).rejects.toThrow('roll back');
    // in a tenant transaction too (the application role may insert jobs)
    await expect(
      t.db.transaction({ scope: 'tenant', customerId: acme }, async (tx) => {
        await enqueue(tx, jobOf(countKind, { n: -2 }));
        throw new Error('roll back');
      }),
    ).rejects.toThrow('roll back');
    await t.settle();
    expect(await jobsOf('test-count')).toEqual([]);
    expect(runs.filter((r) => r.n < 0)).toEqual([]);
  });

  it('a job enqueued in a committed transaction runs once, soon after the commit', async () => {
    await t.db.transaction({ scope: 'tenant', customerId: acme }, (tx) =>
      enqueue(tx, jobOf(countKind, { n: 0 })),
    );
    // the commit's notification wakes the worker: no need to wait for the next poll
    await until(
      async () => runs.filter((r) => r.n === 0).length,
      (n) => n === 1,
    );
    const [job] = await until(
      () => jobsOf('test-count'),
      (j) => j[0]?.state === 'completed',
    );
    expect(job?.retryCount).toBe(0);
  });

  it('throttled wakes: a burst sends fewer notifications than jobs, and every job still runs', async () => {
    const heard: string[] = [];
    await t.db.listen(JOBS_CHANNEL, (name) => heard.push(name ?? ''));
    const burst = [51, 52, 53, 54, 55];
    // one transaction per job, as requests do, within the throttle's window
    const started = Date.now();
    await Promise.all(
      burst.map((n) =>
        t.db.transaction({ scope: 'tenant', customerId: acme }, (tx) =>
          enqueue(tx, jobOf(countKind, { n }, { wake: 'throttled' })),
        ),
      ),
    );
    const within = Date.now() - started < WAKE_THROTTLE_MS;
    await until(
      async () => runs.filter((r) => burst.includes(r.n)).length,
      (n) => n === burst.length,
    );
    const woke = heard.filter((h) => h === 'test-count').length;
    expect(woke).toBeGreaterThanOrEqual(1);
    if (within) expect(woke).toBe(1);
    else expect(woke).toBeLessThan(burst.length);
  });

  it('a failed BEGIN ... COMMIT block from the queue leaves no aborted transaction behind', async () => {
    await expect(t.db.ownerQuery('BEGIN; select 1/0; COMMIT;')).rejects.toThrow();
    for (let i = 0; i < 6; i++) {
      expect((await t.db.ownerQuery('select 1 as one; select 2 as two')).rows).toEqual([
        { two: 2 },
      ]);
      await t.db.transaction(all, (tx) => tx.execute(sql`select 1`));
    }
  });

  it('refuses a job for a queue that does not exist (not dropped as a de-duplicated one)', async () => {
    const missing = { name: 'test-no-such-queue', data: { n: 1 } };
    await expect(t.db.transaction(all, (tx) => enqueue(tx, missing))).rejects.toThrow(
      "No job queue named 'test-no-such-queue'",
    );
    await expect(
      t.db.transaction({ scope: 'tenant', customerId: acme }, (tx) => enqueue(tx, missing)),
    ).rejects.toThrow("No job queue named 'test-no-such-queue'");
    // a de-duplicated job of an existing queue is still a null, not an error
    const key = { singletonKey: 'test-dedup', singletonSeconds: 60 };
    const ids = await t.db.transaction({ scope: 'tenant', customerId: acme }, async (tx) => [
      await enqueue(tx, jobOf(countKind, { n: 9_001 }, key)),
      await enqueue(tx, jobOf(countKind, { n: 9_002 }, key)),
    ]);
    expect(ids[0]).toEqual(expect.any(String));
    expect(ids[1]).toBeNull();
  });

  it('refuses a payload its kind does not accept, before anything is written', () => {
    expect(() => jobOf(countKind, { n: 1.5 })).toThrow();
  });
});

describe('workers in two server processes on one database', () => {
  it('run each job exactly once', async () => {
    const second = await t.twin();
    const ns = Array.from({ length: 30 }, (_, i) => 100 + i);
    for (const batch of [ns.slice(0, 15), ns.slice(15)]) {
      await t.db.transaction(all, async (tx) => {
        for (const n of batch) await enqueue(tx, jobOf(countKind, { n }));
      });
    }
    const done = await until(
      async () => runs.filter((r) => r.kind === 'test-count' && ns.includes(r.n)),
      (r) => r.length >= ns.length,
    );
    // a little longer: a job run twice would show now
    await new Promise((r) => setTimeout(r, 1500));
    // only this test's jobs (others enqueue test-count with n of 9001 and more)
    const again = runs.filter((r) => r.kind === 'test-count' && ns.includes(r.n));
    expect(again).toHaveLength(ns.length);
    expect(new Set(done.map((r) => r.n))).toEqual(new Set(ns));
    const states = await t.owner((tx) =>
      tx
        .select({ state: queueJobs.state, n: sql<number>`count(*)::int` })
        .from(queueJobs)
        .where(
          sql`${queueJobs.name} = 'test-count' and (${queueJobs.data}->>'n')::int between 100 and 129`,
        )
        .groupBy(queueJobs.state),
    );
    expect(states).toEqual([{ state: 'completed', n: ns.length }]);
    expect(second.deps.jobs.names()).toContain('test-count');
  });
});

describe('a failing job', () => {
  it('is retried with back-off until it succeeds', async () => {
    await t.db.transaction(all, (tx) => enqueue(tx, jobOf(flakyKind, { n: 1 })));
    // first failure: waiting to run again after 1-2 s (delay × 2^1 / 2, plus up to as much jitter)
    const [afterOne] = await until(
      () => jobsOf('test-flaky'),
      (j) => j[0]?.state === 'retry' && j[0].output !== null,
    );
    const firstWait = await t.owner(async (tx) => {
      const [r] = await tx
        .select({ s: sql<number>`extract(epoch from ${queueJobs.startAfter} - now())::float` })
        .from(queueJobs)
        .where(eq(queueJobs.name, 'test-flaky'));
      return r?.s ?? 0;
    });
    expect(afterOne?.output).toMatchObject({ message: 'flaky failure 1' });
    expect(firstWait).toBeGreaterThan(0.3);
    expect(firstWait).toBeLessThanOrEqual(2);
    // second failure: 2-4 s; then the third run succeeds
    const [second] = await until(
      () => jobsOf('test-flaky'),
      (j) => j[0]?.state === 'retry' && j[0].retryCount === 1,
    );
    expect(second?.startAfter.getTime()).toBeGreaterThanOrEqual(Date.now() + 1000);
    const [done] = await until(
      () => jobsOf('test-flaky'),
      (j) => j[0]?.state === 'completed',
    );
    expect(done?.retryCount).toBe(2);
    expect(runs.filter((r) => r.kind === 'test-flaky')).toHaveLength(3);
  });
});

describe('a dead job (retries exhausted)', () => {
  it('is listed for operations staff at /api/ops/jobs/, to no one else', async () => {
    await t.db.transaction(all, (tx) => enqueue(tx, jobOf(deadKind, { n: 7 })));
    await until(
      () => jobsOf('test-dead'),
      (j) => j[0]?.state === 'failed',
    );
    const ops = await login(t.app, 'ops@k.test');
    const res = await t.app.inject({
      method: 'GET',
      url: '/api/ops/jobs/?state=failed&page_size=1',
      headers: ops.headers,
    });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body).toMatchObject({ count: 1, next: null, previous: null });
    expect(body.results[0]).toMatchObject({
      name: 'test-dead',
      state: 'failed',
      retry_count: 1,
      retry_limit: 1,
      error: 'provider down 7',
    });
    expect(body.results[0]).not.toHaveProperty('data');

    const every = await t.app.inject({
      method: 'GET',
      url: '/api/ops/jobs/?page_size=2',
      headers: ops.headers,
    });
    expect(every.json().count).toBeGreaterThan(2);
    expect(every.json().next).toContain('page=2');
    const bad = await t.app.inject({
      method: 'GET',
      url: '/api/ops/jobs/?state=bogus',
      headers: ops.headers,
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toEqual({
      state: ['Select a valid choice. bogus is not one of the available choices.'],
    });

    const admin = await login(t.app, 'admin@acme.test');
    const refused = await t.app.inject({
      method: 'GET',
      url: '/api/ops/jobs/',
      headers: admin.headers,
    });
    expect(refused.statusCode).toBe(403);
    const anon = await anonymous(t.app);
    const nobody = await t.app.inject({
      method: 'GET',
      url: '/api/ops/jobs/',
      headers: anon.headers,
    });
    expect([401, 403]).toContain(nobody.statusCode);
  });
});

describe('housekeeping', () => {
  it('is a recurring job on the queue when HOUSEKEEPING_MS is set', async () => {
    expect(cronEvery(0)).toBeNull();
    expect(cronEvery(10 * 60_000)).toBe('*/10 * * * *');
    expect(cronEvery(30_000)).toBe('* * * * *');
    expect(cronEvery(2 * 60 * 60_000)).toBe('0 */2 * * *');
    const other = await buildTestApp({ config: { housekeepingMs: 10 * 60_000 } });
    try {
      const schedules = await other.owner((tx) =>
        tx.execute(sql`select name, cron, timezone from pgboss.schedule`),
      );
      // other kinds (the checks' daily re-checks) have schedules of their own
      const housekeeping = JSON.parse(JSON.stringify(schedules)).filter(
        (s: { name: string }) => s.name === 'housekeeping',
      );
      expect(housekeeping).toMatchObject([
        { name: 'housekeeping', cron: '*/10 * * * *', timezone: 'UTC' },
      ]);
    } finally {
      await other.close();
    }
  });
});
