import { boolean, integer, jsonb, pgSchema, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import PgBoss from 'pg-boss';
import type { z } from 'zod';
import { type Database, type Tx, txQuery } from '../db/connection.js';
import { QUEUE_SCHEMA } from '../db/queue-schema.js';

/**
 * Background work on pg-boss, over the application's own database layer (see
 * docs/decisions/009-job-queue.md): a job is a row inserted in the transaction of the change
 * that causes it, and workers in the server process run it once, retrying with back-off.
 */

/** The notification channel on which a committed job wakes the workers of every process. */
export const JOBS_CHANNEL = 'kestrel_jobs';

/** A job's states, in pg-boss's order (retry: waiting to run again; failed: retries exhausted). */
export const JOB_STATES = [
  'created',
  'retry',
  'active',
  'completed',
  'cancelled',
  'failed',
] as const;

const tz = { withTimezone: true } as const;
/**
 * pg-boss's job table, to read (the ops list). pg-boss creates and migrates it: this is not a
 * `*.table.ts` file, so drizzle-kit never generates a migration for it.
 */
export const queueJobs = pgSchema(QUEUE_SCHEMA).table('job', {
  id: uuid('id').notNull(),
  name: text('name').notNull(),
  state: text('state', { enum: JOB_STATES }).notNull(),
  retryLimit: integer('retry_limit').notNull(),
  retryCount: integer('retry_count').notNull(),
  retryDelay: integer('retry_delay').notNull(),
  retryBackoff: boolean('retry_backoff').notNull(),
  startAfter: timestamp('start_after', tz).notNull(),
  startedOn: timestamp('started_on', tz),
  createdOn: timestamp('created_on', tz).notNull(),
  completedOn: timestamp('completed_on', tz),
  data: jsonb('data'),
  output: jsonb('output'),
  singletonKey: text('singleton_key'),
});

export interface RetryPolicy {
  /** Runs after the first one (0: none). */
  limit: number;
  /** Seconds before the first retry; doubled (with jitter) for each next one when `backoff`. */
  delaySeconds: number;
  backoff: boolean;
}

/** One kind of job: its payload schema, handler, retry policy and (recurring kinds) schedule. */
export interface JobKind<T, D> {
  /** The queue's name (letters, digits, '-' and '_'). */
  name: string;
  payload: z.ZodType<T>;
  retry: RetryPolicy;
  /** A run taking longer fails (and is retried). */
  expireInSeconds: number;
  /**
   * How many of its jobs a server process runs at once (default 1). The first worker polls; the
   * others are woken by a committed job and by a sibling finishing one (and poll seldom).
   */
  workers?: number;
  /** Recurring kinds: a cron expression (UTC) for this configuration, or null for none. */
  cron?(deps: D): string | null;
  handle(data: T, deps: D): Promise<void>;
}

/** A job to enqueue: the kind's name and a payload its schema accepted. */
export interface JobRequest {
  name: string;
  data: object;
  /**
   * A key for de-duplication: with `singletonSeconds`, or on a queue whose pg-boss policy
   * de-duplicates by key ('short', 'singleton', 'stately'). Alone on a standard queue (every
   * kind's today) it de-duplicates nothing: the jobs given one must be idempotent.
   */
  singletonKey?: string;
  /**
   * With `singletonKey`: at most one job with this key is enqueued per this many seconds (a
   * later one in the same window is dropped), whatever the queue's policy.
   */
  singletonSeconds?: number;
  /** Not before this many seconds from now. */
  startAfterSeconds?: number;
  /**
   * `throttled`: wake the workers (NOTIFY) at most once per WAKE_THROTTLE_MS per queue from this
   * process, for kinds enqueued many times a second (provider callbacks). PostgreSQL serialises
   * the commits of notifying transactions (a global lock held through the commit's flush), so a
   * NOTIFY per request caps the rate; a busy worker looks again after each job anyway, and an
   * idle one polls (at worst the polling interval late).
   */
  wake?: 'always' | 'throttled';
}

/** See `JobRequest.wake`. */
export const WAKE_THROTTLE_MS = 100;
const lastWake = new Map<string, number>();

/** Whether this enqueue of queue `name` sends a NOTIFY (and notes it). */
function shouldWake(job: JobRequest): boolean {
  if (job.wake !== 'throttled') return true;
  const now = Date.now();
  if (now - (lastWake.get(job.name) ?? 0) < WAKE_THROTTLE_MS) return false;
  lastWake.set(job.name, now);
  return true;
}

/** A job of `kind` with `data` (checked against the kind's schema now, not in the worker). */
export function jobOf<T extends object>(
  kind: { name: string; payload: z.ZodType<T> },
  data: T,
  options: Omit<JobRequest, 'name' | 'data'> = {},
): JobRequest {
  return { name: kind.name, data: kind.payload.parse(data), ...options };
}

function sendOptions(job: JobRequest, db: PgBoss.Db): PgBoss.SendOptions {
  return {
    db,
    ...(job.singletonKey !== undefined ? { singletonKey: job.singletonKey } : {}),
    ...(job.singletonSeconds !== undefined ? { singletonSeconds: job.singletonSeconds } : {}),
    ...(job.startAfterSeconds !== undefined ? { startAfter: job.startAfterSeconds } : {}),
  };
}

const refuse: PgBoss.Db = {
  executeSql: () => Promise.reject(new Error('the job sender runs only in a given transaction')),
};
let sender: PgBoss | null = null;

/**
 * Enqueues `job` in the open transaction `tx`: the job row commits with the change that caused
 * it, or disappears with its rollback. The commit also wakes the workers (a transactional
 * NOTIFY). Returns the job's id, or null when a job it de-duplicates with is there (see
 * `JobRequest.singletonKey`); throws when no queue has the job's name.
 */
export async function enqueue(tx: Tx, job: JobRequest): Promise<string | null> {
  // pg-boss's own insert (the queue's policy applies), sent through the caller's transaction.
  sender ??= new PgBoss({
    db: refuse,
    schema: QUEUE_SCHEMA,
    migrate: false,
    schedule: false,
    supervise: false,
  });
  const db: PgBoss.Db = { executeSql: (text, values) => txQuery(tx, text, values ?? []) };
  const id = await sender.send(job.name, job.data, sendOptions(job, db));
  // pg-boss answers null both for a job it de-duplicated and for a queue that does not exist:
  // the second is a mistake (a kind not registered, a name mistyped), never a silent drop.
  if (id === null) {
    const queue = await txQuery(tx, `select 1 from ${QUEUE_SCHEMA}.queue where name = $1`, [
      job.name,
    ]);
    if (queue.rows.length === 0) throw new Error(`No job queue named '${job.name}'`);
  }
  if (id !== null && shouldWake(job)) {
    await txQuery(tx, 'select pg_notify($1, $2)', [JOBS_CHANNEL, job.name]);
  }
  return id;
}

/** The most jobs of one kind a process runs at once (each worker may hold a pool connection). */
export const MAX_KIND_WORKERS = 16;

/**
 * `JOB_CONCURRENCY`: how many jobs of a kind each server process runs at once, overriding the
 * kind's own `workers`, as `<queue>=<n>` pairs separated by commas (e.g.
 * `send-email=8,webhook-delivery=4`; n from 1 to MAX_KIND_WORKERS). Anything else is refused at
 * start (a mistyped knob should not be silently ignored); unset or empty: each kind's default.
 */
export function readJobConcurrency(env: NodeJS.ProcessEnv = process.env): Record<string, number> {
  const out: Record<string, number> = {};
  const text = (env.JOB_CONCURRENCY ?? '').trim();
  if (!text) return out;
  for (const item of text.split(',')) {
    const m = /^\s*([A-Za-z0-9_-]+)\s*=\s*(\d+)\s*$/.exec(item);
    const n = Number(m?.[2]);
    if (!m?.[1] || !Number.isInteger(n) || n < 1 || n > MAX_KIND_WORKERS) {
      throw new Error(
        `JOB_CONCURRENCY: '${item.trim()}' is not <queue>=<1..${MAX_KIND_WORKERS}> (e.g. send-email=8)`,
      );
    }
    out[m[1]] = n;
  }
  return out;
}

export interface JobQueueOptions {
  /** Run workers in this process (else it only enqueues). */
  workers: boolean;
  /**
   * Per queue, how many of its jobs this process runs at once, over the kind's `workers`
   * (default: `readJobConcurrency()` of the environment's JOB_CONCURRENCY).
   */
  concurrency?: Readonly<Record<string, number>>;
  /** How often an idle worker looks for due jobs (a commit wakes it at once anyway). */
  pollingSeconds: number;
  /** Queue errors and failed runs (logged by the caller). */
  onError: (err: unknown, context: string) => void;
  /** How long stop() waits for running jobs (default 7 s), then for late ones (2 s). */
  stopTimeoutMs?: number;
  stopDrainMs?: number;
}

const DAY_SECONDS = 24 * 60 * 60;

/**
 * pg-boss over the app's database layer: on PGlite every statement waits for the open
 * transaction instead of joining it (docs/decisions/009-job-queue.md says why).
 */
function bossConfig(db: Database): PgBoss.ConstructorOptions {
  return {
    db: { executeSql: (text, values) => db.ownerQuery(text, values) },
    schema: QUEUE_SCHEMA,
  };
}

/** Creates each kind's queue with its retry policy, or updates the policy of an existing one. */
async function applyPolicies<D>(boss: PgBoss, kinds: Iterable<JobKind<unknown, D>>) {
  for (const k of kinds) {
    const policy = {
      name: k.name,
      retryLimit: k.retry.limit,
      retryDelay: k.retry.delaySeconds,
      retryBackoff: k.retry.backoff,
      expireInSeconds: k.expireInSeconds,
    };
    if (await boss.getQueue(k.name)) await boss.updateQueue(k.name, policy);
    else await boss.createQueue(k.name, policy);
  }
}

/**
 * Creates the kinds' queues (each a partition of pgboss.job, about half a second apiece on
 * PGlite) without starting a queue: the test template holds them, so each test file's app
 * starts its queue in a few milliseconds.
 */
export async function createQueues<D>(
  db: Database,
  kinds: Iterable<JobKind<unknown, D>>,
): Promise<void> {
  const boss = new PgBoss({ ...bossConfig(db), migrate: false, schedule: false, supervise: false });
  await applyPolicies(boss, kinds);
}

type AnyKind<D> = JobKind<unknown, D>;

/**
 * The queue of one server process: creates the kinds' queues (with their retry policies),
 * schedules the recurring ones, and (when `workers`) runs jobs as they become due.
 */
export class JobQueue<D> {
  private boss: PgBoss | null = null;
  private readonly workerIds = new Map<string, string[]>();
  private readonly kinds = new Map<string, AnyKind<D>>();
  private readonly concurrency: Readonly<Record<string, number>>;
  private stopped = false;
  /** After stop: an answer of the queue's SQL that fails (the pool closed) is dropped. */
  private closed = false;
  /** The queue's statements and job runs in flight (stop waits for them). */
  private readonly inFlight = new Set<Promise<unknown>>();

  constructor(
    private readonly db: Database,
    kinds: readonly AnyKind<D>[],
    private readonly deps: () => D,
    private readonly options: JobQueueOptions,
  ) {
    for (const k of kinds) this.kinds.set(k.name, k);
    this.concurrency = options.concurrency ?? readJobConcurrency();
    for (const name of Object.keys(this.concurrency)) {
      if (!this.kinds.has(name)) throw new Error(`JOB_CONCURRENCY: no job queue named '${name}'`);
    }
  }

  /** How many jobs of `kind` this process runs at once. */
  workersOf(kind: { name: string; workers?: number }): number {
    return Math.max(1, this.concurrency[kind.name] ?? kind.workers ?? 1);
  }

  /** The kinds' queue names. */
  names(): string[] {
    return [...this.kinds.keys()];
  }

  async start(): Promise<void> {
    const deps = this.deps();
    const crons = new Map<string, string | null>();
    for (const k of this.kinds.values()) crons.set(k.name, k.cron ? k.cron(deps) : null);
    const boss = new PgBoss({
      ...bossConfig(this.db),
      db: { executeSql: (text, values) => this.query(text, values ?? []) },
      migrate: true,
      supervise: true,
      schedule: [...crons.values()].some((c) => c !== null),
      // Dead jobs stay listed for ops (GET /api/ops/jobs/) for two weeks.
      archiveFailedAfterSeconds: 14 * DAY_SECONDS,
    });
    boss.on('error', (err) => this.options.onError(err, 'queue'));
    this.boss = boss;
    await boss.start();
    await applyPolicies(boss, this.kinds.values());
    for (const k of this.kinds.values()) {
      const cron = crons.get(k.name) ?? null;
      if (cron) await boss.schedule(k.name, cron, {}, { tz: 'UTC' });
      else await boss.unschedule(k.name);
    }
    if (this.options.workers) {
      for (const k of this.kinds.values()) {
        const ids: string[] = [];
        for (let w = 0; w < this.workersOf(k); w++) {
          const pollingIntervalSeconds =
            w === 0 ? this.options.pollingSeconds : Math.max(this.options.pollingSeconds, 30);
          ids.push(
            await boss.work(k.name, { batchSize: 1, pollingIntervalSeconds }, (jobs) =>
              this.track(this.runAll(k, jobs)).finally(() => this.wake(k.name)),
            ),
          );
        }
        this.workerIds.set(k.name, ids);
      }
      await this.db.listen(JOBS_CHANNEL, (name) => this.wake(name));
    }
  }

  private track<T>(p: Promise<T>): Promise<T> {
    this.inFlight.add(p);
    const done = () => this.inFlight.delete(p);
    p.then(done, done);
    return p;
  }

  /**
   * pg-boss's statements, tracked. pg-boss records a run's outcome without awaiting it: once the
   * queue is stopped and the pool closed, that statement's failure would be an unhandled
   * rejection (the process dies); it is dropped instead, never answered (the job, still active,
   * expires and runs again, as after a crash).
   */
  private query(text: string, values: unknown[]): Promise<{ rows: unknown[] }> {
    return this.track(
      this.db.ownerQuery(text, values).catch((err: unknown) => {
        // never answered: what awaits it (pg-boss's bookkeeping of a stopped worker) waits on
        if (this.closed) return new Promise<never>(() => {});
        throw err;
      }),
    );
  }

  /**
   * A committed job of queue `name` (null: maybe several) is waiting, or a worker has just
   * finished one (more may wait: pg-boss 10 would otherwise pause a polling interval between
   * two jobs): look now.
   */
  private wake(name: string | null): void {
    if (this.stopped || !this.boss) return;
    for (const [queue, ids] of this.workerIds) {
      if (name !== null && name !== queue) continue;
      for (const id of ids) this.boss.notifyWorker(id);
    }
  }

  private async runAll(kind: AnyKind<D>, jobs: { id: string; data: unknown }[]): Promise<void> {
    for (const job of jobs) {
      try {
        await kind.handle(kind.payload.parse(job.data), this.deps());
      } catch (err) {
        this.options.onError(err, `job ${kind.name} ${job.id}`);
        throw err;
      }
    }
  }

  /**
   * Runs every due job of these kinds in this process now, and waits until none is due or
   * running anywhere (tests: "after the request, its email has been sent").
   */
  async settle(timeoutMs = 15_000): Promise<void> {
    const boss = this.boss;
    if (!boss) throw new Error('job queue not started');
    const names = this.names();
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      for (const k of this.kinds.values()) {
        const jobs = await boss.fetch<unknown>(k.name, { batchSize: 10 });
        for (const job of jobs) {
          try {
            await this.runAll(k, [job]);
            await boss.complete(k.name, job.id);
          } catch (err) {
            await boss.fail(k.name, job.id, { message: String(err) });
          }
        }
      }
      const { rows } = await this.db.ownerQuery(
        `select count(*)::int as n from ${QUEUE_SCHEMA}.job where name = any($1::text[])
           and (state = 'active' or (state in ('created', 'retry') and start_after <= now()))`,
        [names],
      );
      if (Number(rows[0]?.n ?? 0) === 0) return;
      if (Date.now() > deadline) throw new Error('jobs did not settle');
      await new Promise((r) => setTimeout(r, 20));
    }
  }

  async stop(): Promise<void> {
    this.stopped = true;
    const boss = this.boss;
    if (!boss) return;
    // Waits (up to 7 s, within main.ts's 10 s shutdown) for running jobs; one still running then
    // fails and is retried.
    await boss.stop({ graceful: true, wait: true, timeout: this.options.stopTimeoutMs ?? 7_000 });
    // A worker whose fetch was in flight when the stop began runs what it fetched afterwards
    // (pg-boss's stop saw no job running), then records the outcome: wait for those too (up to
    // 2 s) before the caller closes the pool; past that, their statements are dropped.
    const deadline = Date.now() + (this.options.stopDrainMs ?? 2_000);
    while (this.inFlight.size > 0 && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 20));
    }
    this.closed = true;
  }
}
