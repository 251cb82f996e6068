import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { buildTestApp, type TestApp } from '../../test/helpers.js';
import type { AppDeps } from '../app-deps.js';
import {
  enqueue,
  type JobKind,
  JobQueue,
  jobOf,
  MAX_KIND_WORKERS,
  readJobConcurrency,
} from './jobs.js';

/*
 * A kind's `workers`: that many of its jobs run at once in a process (the check engine's start
 * and poll queues of a rate-limited provider), one at a time without it; JOB_CONCURRENCY
 * overrides it per queue (faster drains of queued emails, issue 33).
 */

const payload = z.object({ n: z.number().int() });

/** A kind whose runs wait until released, counting how many are in flight at once. */
function heldKind(name: string, workers?: number) {
  const state = { inFlight: 0, most: 0, done: [] as number[], release: () => {} };
  const released = new Promise<void>((r) => {
    state.release = r;
  });
  const kind: JobKind<{ n: number }, AppDeps> = {
    name,
    payload,
    retry: { limit: 0, delaySeconds: 0, backoff: false },
    expireInSeconds: 30,
    ...(workers ? { workers } : {}),
    async handle(data) {
      state.inFlight += 1;
      state.most = Math.max(state.most, state.inFlight);
      await released;
      state.inFlight -= 1;
      state.done.push(data.n);
    },
  };
  return { kind, state };
}

const several = heldKind('test-workers-three', 3);
const single = heldKind('test-workers-one');
const configured = heldKind('test-workers-env');
let t: TestApp;

beforeAll(async () => {
  const was = process.env.JOB_CONCURRENCY;
  process.env.JOB_CONCURRENCY = 'test-workers-env=2';
  try {
    t = await buildTestApp({
      config: { jobPollingSeconds: 0.5 },
      extraJobs: [several.kind, single.kind, configured.kind],
    });
  } finally {
    if (was === undefined) delete process.env.JOB_CONCURRENCY;
    else process.env.JOB_CONCURRENCY = was;
  }
});
let closed = false;
afterAll(async () => {
  if (!closed) await t.close();
});

async function until(ok: () => boolean, ms = 15_000): Promise<void> {
  const end = Date.now() + ms;
  while (!ok()) {
    if (Date.now() > end) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 25));
  }
}

const enqueueAll = (kind: JobKind<{ n: number }, AppDeps>, ns: readonly number[]) =>
  t.db.transaction({ scope: 'all', customerId: null }, async (tx) => {
    for (const n of ns) await enqueue(tx, jobOf(kind, { n }));
  });

describe('a kind’s workers', () => {
  it('run that many of its jobs at once, and no more', async () => {
    const ns = [1, 2, 3, 4, 5];
    await enqueueAll(several.kind, ns);
    // three are taken at once (the others are woken by the commit, not their slow poll)
    await until(() => several.state.inFlight === 3);
    await new Promise((r) => setTimeout(r, 600));
    expect(several.state.inFlight).toBe(3);
    several.state.release();
    await until(() => several.state.done.length === ns.length);
    expect([...several.state.done].sort()).toEqual(ns);
    expect(several.state.most).toBe(3);
  });

  it('without workers, one at a time', async () => {
    const ns = [11, 12, 13];
    await enqueueAll(single.kind, ns);
    await until(() => single.state.inFlight === 1);
    await new Promise((r) => setTimeout(r, 600));
    expect(single.state.inFlight).toBe(1);
    single.state.release();
    await until(() => single.state.done.length === ns.length);
    expect(single.state.most).toBe(1);
  });
});

describe('JOB_CONCURRENCY', () => {
  it('sets a kind without workers to run that many at once in the process', async () => {
    const ns = [21, 22, 23, 24];
    await enqueueAll(configured.kind, ns);
    await until(() => configured.state.inFlight === 2);
    await new Promise((r) => setTimeout(r, 600));
    expect(configured.state.inFlight).toBe(2);
    configured.state.release();
    await until(() => configured.state.done.length === ns.length);
    expect(configured.state.most).toBe(2);
  });

  it('reads <queue>=<n> pairs and refuses anything else', () => {
    expect(readJobConcurrency({})).toEqual({});
    expect(readJobConcurrency({ JOB_CONCURRENCY: ' ' })).toEqual({});
    expect(readJobConcurrency({ JOB_CONCURRENCY: 'send-email=8, webhook-delivery = 4' })).toEqual({
      'send-email': 8,
      'webhook-delivery': 4,
    });
    for (const bad of [
      'send-email',
      'send-email=0',
      `send-email=${MAX_KIND_WORKERS + 1}`,
      'send-email=2.5',
      'send email=2',
      'send-email=2,',
    ]) {
      expect(() => readJobConcurrency({ JOB_CONCURRENCY: bad }), bad).toThrow(/JOB_CONCURRENCY/);
    }
  });

  it('refuses a queue no kind has, at start', () => {
    const queue = (concurrency: Record<string, number>) =>
      new JobQueue(t.db, [single.kind], () => t.app.deps, {
        workers: false,
        pollingSeconds: 1,
        onError: () => {},
        concurrency,
      });
    expect(() => queue({ 'no-such-queue': 2 })).toThrow(
      "JOB_CONCURRENCY: no job queue named 'no-such-queue'",
    );
    expect(queue({ 'test-workers-one': 3 }).workersOf(single.kind)).toBe(3);
    expect(queue({}).workersOf(single.kind)).toBe(1);
    expect(queue({}).workersOf(several.kind)).toBe(3);
  });
});

describe('stopping with a job still running', () => {
  // Last in the file: it closes the file's database.
  it('records nothing after the pool has closed, and the process lives on', async () => {
    const late = heldKind('test-workers-late');
    const queue = new JobQueue(t.db, [late.kind], () => t.app.deps, {
      workers: true,
      pollingSeconds: 0.5,
      onError: () => {},
      stopTimeoutMs: 1_000,
      stopDrainMs: 100,
    });
    await queue.start();
    await enqueueAll(late.kind, [31]);
    await until(() => late.state.inFlight === 1);
    const unhandled: unknown[] = [];
    const onUnhandled = (reason: unknown) => unhandled.push(reason);
    process.on('unhandledRejection', onUnhandled);
    try {
      // the stop gives up on the running job, the pool closes, then the job ends: pg-boss
      // records its outcome without awaiting it, on a closed pool
      await queue.stop();
      closed = true;
      await t.close();
      late.state.release();
      await until(() => late.state.done.length === 1);
      await new Promise((r) => setTimeout(r, 500));
      expect(unhandled).toEqual([]);
    } finally {
      process.off('unhandledRejection', onUnhandled);
    }
  });
});
