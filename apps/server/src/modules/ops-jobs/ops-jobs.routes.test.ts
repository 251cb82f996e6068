import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  buildTestApp,
  createAdminAndViewer,
  createCustomer,
  createProductUser,
  login,
  type TestApp,
} from '../../../test/helpers.js';
import type { AppDeps } from '../../app-deps.js';
import { enqueue, type JobKind, jobOf, queueJobs } from '../../platform/jobs.js';
import { auditActions } from '../../platform/tables/audit.table.js';
import { summariseJobData } from './job-summary.js';
import { NOT_DEAD } from './ops-jobs.service.js';

// A dead job (retries exhausted) listed at /api/ops/jobs/?state=failed, retried or discarded by
// operations staff (issue 33), audited; nobody else may.
let failing = true;
const runs: number[] = [];
const brittleKind: JobKind<{ n: number; to: string; text: string }, AppDeps> = {
  name: 'test-brittle',
  payload: z.object({ n: z.number(), to: z.string(), text: z.string() }),
  retry: { limit: 0, delaySeconds: 0, backoff: false },
  expireInSeconds: 30,
  async handle(data) {
    runs.push(data.n);
    if (failing) throw new Error(`provider down ${data.n}`);
  },
};

let t: TestApp;
const all = { scope: 'all', customerId: null } as const;

beforeAll(async () => {
  t = await buildTestApp({ config: { jobWorkers: false }, extraJobs: [brittleKind] });
  await t.owner(async (tx) => {
    const c = await createCustomer(tx, { name: 'Acme' });
    await createAdminAndViewer(tx, c.id);
    await createProductUser(tx, { customerId: null, username: 'ops@k.test', roles: ['ops'] });
  });
});
afterAll(() => t.close());

const jobOfN = async (n: number) => {
  await t.db.transaction(all, (tx) =>
    enqueue(tx, jobOf(brittleKind, { n, to: `p${n}@example.test`, text: 'secret link' })),
  );
  await t.settle();
  const rows = await t.owner((tx) =>
    tx.select().from(queueJobs).where(eq(queueJobs.name, 'test-brittle')),
  );
  const row = rows.find((r) => (r.data as { n: number }).n === n);
  if (!row) throw new Error('no job');
  return row;
};
const post = (headers: Record<string, string>, url: string) =>
  t.app.inject({ method: 'POST', url, headers, payload: {} });

describe('dead jobs at /api/ops/jobs/', () => {
  it('are listed with their data summary, error and attempts; retried from the API, they run', async () => {
    const job = await jobOfN(1);
    expect(job.state).toBe('failed');
    const ops = await login(t.app, 'ops@k.test');
    const list = await t.app.inject({
      method: 'GET',
      url: '/api/ops/jobs/?state=failed&name=test-brittle',
      headers: ops.headers,
    });
    expect(list.statusCode).toBe(200);
    expect(list.json().results[0]).toMatchObject({
      id: job.id,
      name: 'test-brittle',
      state: 'failed',
      retry_count: 0,
      error: 'Error: provider down 1',
      data_summary: 'n=1, to=p1@example.test',
    });
    failing = false;
    const res = await post(ops.headers, `/api/ops/jobs/${job.id}/retry/`);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ detail: 'Job queued again' });
    await t.settle();
    const [after] = await t.owner((tx) =>
      tx.select().from(queueJobs).where(eq(queueJobs.id, job.id)),
    );
    expect(after?.state).toBe('completed');
    expect(runs.filter((n) => n === 1)).toHaveLength(2);
    // no longer dead: a second retry is refused
    const again = await post(ops.headers, `/api/ops/jobs/${job.id}/retry/`);
    expect(again.statusCode).toBe(400);
    expect(again.json()).toEqual({ non_field_errors: [NOT_DEAD] });
    const audits = await t.owner((tx) =>
      tx.select().from(auditActions).where(eq(auditActions.objectId, job.id)),
    );
    expect(audits.map((a) => [a.verb, a.contentType, a.customerId])).toEqual([
      ['job_retried', 'jobs.job', null],
    ]);
    failing = true;
  });

  it('are discarded: cancelled, never run again, audited', async () => {
    const job = await jobOfN(2);
    const ops = await login(t.app, 'ops@k.test');
    const res = await post(ops.headers, `/api/ops/jobs/${job.id}/discard/`);
    expect(res.json()).toEqual({ detail: 'Job discarded' });
    await t.settle();
    const [after] = await t.owner((tx) =>
      tx.select().from(queueJobs).where(eq(queueJobs.id, job.id)),
    );
    expect(after?.state).toBe('cancelled');
    expect(runs.filter((n) => n === 2)).toHaveLength(1);
    const [audit] = await t.owner((tx) =>
      tx.select().from(auditActions).where(eq(auditActions.objectId, job.id)),
    );
    expect(audit?.verb).toBe('job_discarded');
  });

  it('only operations staff may; an unknown job is 404', async () => {
    const job = await jobOfN(3);
    const admin = await login(t.app, 'admin@acme.test');
    for (const action of ['retry', 'discard']) {
      expect((await post(admin.headers, `/api/ops/jobs/${job.id}/${action}/`)).statusCode).toBe(
        403,
      );
      const anon = await t.app.inject({
        method: 'POST',
        url: `/api/ops/jobs/${job.id}/${action}/`,
      });
      expect([401, 403]).toContain(anon.statusCode);
    }
    const ops = await login(t.app, 'ops@k.test');
    const missing = '00000000-0000-4000-8000-000000000000';
    expect((await post(ops.headers, `/api/ops/jobs/${missing}/retry/`)).statusCode).toBe(404);
    expect((await post(ops.headers, '/api/ops/jobs/not-a-uuid/discard/')).statusCode).toBe(404);
    const [still] = await t.owner((tx) =>
      tx.select().from(queueJobs).where(eq(queueJobs.id, job.id)),
    );
    expect(still?.state).toBe('failed');
  });
});

describe('summariseJobData', () => {
  it('shows plain fields, never bodies, links or nested data', () => {
    expect(
      summariseJobData({
        to: 'a@b.test',
        subject: 'Reset',
        text: 'https://x/reset?token=abc',
        html: '<a>',
        customerId: 4,
        nested: { token: 'x' },
      }),
    ).toBe('to=a@b.test, subject=Reset, customerId=4');
    expect(summariseJobData(null)).toBe('');
    expect(summariseJobData({ to: 'x'.repeat(80) })).toBe(`to=${'x'.repeat(59)}…`);
  });
});
