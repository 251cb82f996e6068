import { withEvent } from '@kestrel/domain';
import { and, asc, eq, isNull } from 'drizzle-orm';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { isDatabaseUnavailable, txQuery } from '../../db/connection.js';
import { serviceJob } from '../../jobs/service-job.js';
import { systemActor } from '../../platform/context.js';
import { AppError, NotFoundError } from '../../platform/errors.js';
import { jobOf } from '../../platform/jobs.js';
import { parseId } from '../../platform/resource-query.js';
import {
  type ContextDeps,
  runAsSystem,
  type ServiceContext,
} from '../../platform/service-context.js';
import { signedWebhook } from '../../platform/webhooks.js';
import { CALLBACK_PATH, processingOf, saveActivity } from './activity.js';
import { checkCallbackInbox } from './callbacks.table.js';
import { lockActivity } from './engine.js';
import type { LockedActivity, ProviderCallback } from './kind.js';
import { checkEngine } from './providers.js';
import { logNotKept, redactionReason } from './redacted.js';
import { callbackProviderOf } from './registry.js';

/** The request's answer: stored in the inbox (applied by a job), or a replay of a stored event. */
export type CallbackOutcome = 'stored' | 'duplicate';
/** What applying one inbox row did ('stored': recorded on an activity no longer in progress). */
export type InboxOutcome = 'applied' | 'stored' | 'duplicate' | 'rejected';

/** The job that applies an activity's stored callbacks, in order (one job per stored callback). */
export const CALLBACKS_JOB = 'checks-callbacks';
/** Inbox rows one transaction of the job applies at most (then another, until none waits). */
const APPLY_BATCH = 100;

const inboxJobPayload = z.object({
  case_activity_id: z.number().int().positive(),
  customer_id: z.number().int().positive(),
  inbox_id: z.number().int().positive(),
});
type InboxJob = z.infer<typeof inboxJobPayload>;

/** One verified callback to store: the provider it came from, its activity id, its body. */
export interface Receipt {
  provider: string;
  id: number;
  cb: ProviderCallback;
}

/**
 * Verified callbacks, in one cheap transaction: inserted raw in the inbox in the order given
 * (one row per provider event id; a replay changes nothing and is answered 'duplicate'), with
 * one job per customer that applies them. No activity lock: the job applies them in order with
 * the activity's other callbacks. A callback whose activity does not exist answers 404 (its
 * `NotFoundError` in its place); one of another provider or application is found by the job
 * (the row is kept, 'rejected').
 */
export async function receiveCallbacks(
  ctx: ServiceContext,
  receipts: readonly Receipt[],
): Promise<(CallbackOutcome | NotFoundError)[]> {
  // Ids in the order received (the job applies an activity's callbacks in id order), rows
  // inserted in (provider, event id) order: two batches storing the same new events (a
  // provider's redeliveries) then wait for each other in one order, never in a deadlock.
  const { rows } = await txQuery(
    ctx.tx,
    `with ids as (
       select array_agg(i order by i) as ids
         from (select nextval(pg_get_serial_sequence('check_callback_inbox', 'id')) as i
                 from generate_series(1, cardinality($1::int[]))) s
     )
     insert into check_callback_inbox
            (id, customer_id, case_activity_id, provider, event_id, body)
       overriding system value
       select (select ids from ids)[v.n], a.customer_id, a.id, v.provider, v.event_id, v.body
         from unnest($1::int[], $2::text[], $3::text[], $4::jsonb[]) with ordinality
                as v(id, provider, event_id, body, n)
         join case_activities a on a.id = v.id
        -- a replay of a stored event is left out here, not by the conflict below: that would
        -- wait for a job applying the stored row to commit
        where not exists (select 1 from check_callback_inbox i
                           where i.provider = v.provider and i.event_id = v.event_id)
        order by v.provider, v.event_id, v.n
     on conflict (provider, event_id) do nothing
     returning id, customer_id, case_activity_id, provider, event_id`,
    [
      receipts.map((r) => r.id),
      receipts.map((r) => r.provider),
      receipts.map((r) => r.cb.event_id),
      receipts.map((r) => JSON.stringify(r.cb)),
    ],
  );
  const key = (provider: string, eventId: string) => `${provider}\u0000${eventId}`;
  const stored = new Map(rows.map((r) => [key(String(r.provider), String(r.event_id)), r]));
  // Per customer, one job naming its first stored callback: it drains the customer's inbox.
  const firstOf = new Map<number, (typeof rows)[number]>();
  for (const r of rows) {
    const customer = Number(r.customer_id);
    const first = firstOf.get(customer);
    if (!first || Number(r.id) < Number(first.id)) firstOf.set(customer, r);
  }
  for (const [customer, r] of firstOf) {
    await ctx.enqueue(
      jobOf(
        { name: CALLBACKS_JOB, payload: inboxJobPayload },
        {
          case_activity_id: Number(r.case_activity_id),
          customer_id: customer,
          inbox_id: Number(r.id),
        },
        { wake: 'throttled' },
      ),
    );
  }
  // Activities known to exist: those a row was stored for, and those found for the others.
  const existing = new Set(rows.map((r) => Number(r.case_activity_id)));
  const unknown = [...new Set(receipts.map((r) => r.id))].filter((id) => !existing.has(id));
  if (unknown.length > 0) {
    const { rows: found } = await txQuery(
      ctx.tx,
      'select id from case_activities where id = any($1::int[])',
      [unknown],
    );
    for (const f of found) existing.add(Number(f.id));
  }
  // The first receipt of a stored event is 'stored'; a repeat of it (here or earlier) 'duplicate'.
  const answered = new Set<string>();
  return receipts.map((r) => {
    if (!existing.has(r.id)) return new NotFoundError();
    const k = key(r.provider, r.cb.event_id);
    const row = stored.get(k);
    if (row && Number(row.case_activity_id) === r.id && !answered.has(k)) {
      answered.add(k);
      return 'stored';
    }
    return 'duplicate';
  });
}

/** Batches of callbacks stored at once at most (each batch one transaction). */
const RECEIVE_BATCH = 250;
/** Batches being stored at once at most; callbacks arriving meanwhile wait for the next one. */
const RECEIVE_FLUSHES = 2;
/** Callbacks waiting for a batch at most; more are answered 503 (the provider sends them again). */
export const RECEIVE_BACKLOG = 5000;

/** 503: the process is too far behind storing callbacks to take another now. */
export class BusyError extends AppError {
  constructor() {
    super(
      503,
      { detail: 'Too many callbacks are waiting to be stored. Send it again later.' },
      { 'retry-after': '1' },
    );
  }
}

/**
 * Group commit of the callbacks a process receives: a callback is stored at once when no more
 * than RECEIVE_FLUSHES batches are being stored, else with the others that arrive meanwhile, in
 * the next batch's single transaction (one commit, one insert and one job per customer, instead
 * of one each per callback). Each request is answered once its batch has committed. A batch that
 * fails is stored again one callback at a time (one the database refuses fails alone); with the
 * database gone each of its requests answers the failure (the provider sends them again).
 */
export class CallbackReceiver {
  private waiting: {
    receipt: Receipt;
    resolve: (o: CallbackOutcome) => void;
    reject: (e: unknown) => void;
  }[] = [];
  private flushes = 0;

  constructor(private readonly deps: ContextDeps) {}

  receive(receipt: Receipt): Promise<CallbackOutcome> {
    // Far behind (the database slow or gone): refused at once, for the provider to send again,
    // rather than held in memory.
    if (this.waiting.length >= RECEIVE_BACKLOG) return Promise.reject(new BusyError());
    return new Promise((resolve, reject) => {
      this.waiting.push({ receipt, resolve, reject });
      this.pump();
    });
  }

  private pump(): void {
    while (this.flushes < RECEIVE_FLUSHES && this.waiting.length > 0) {
      const batch = this.waiting.splice(0, RECEIVE_BATCH);
      this.flushes++;
      void this.flush(batch).finally(() => {
        this.flushes--;
        this.pump();
      });
    }
  }

  private async flush(batch: CallbackReceiver['waiting']): Promise<void> {
    try {
      const outcomes = await this.store(batch.map((b) => b.receipt));
      batch.forEach((b, i) => {
        const o = outcomes[i];
        if (o === 'stored' || o === 'duplicate') b.resolve(o);
        else b.reject(o ?? new NotFoundError());
      });
    } catch (err) {
      if (batch.length === 1 || isDatabaseUnavailable(err)) {
        for (const b of batch) b.reject(err);
        return;
      }
      // One callback the database refuses must not fail the others: each stored on its own.
      for (const b of batch) await this.flush([b]);
    }
  }

  private store(receipts: Receipt[]) {
    return runAsSystem(this.deps, (ctx) => receiveCallbacks(ctx, receipts), {
      ...systemActor,
      name: 'provider callback',
    });
  }
}
const receivers = new WeakMap<object, CallbackReceiver>();
/** The process's receiver on `deps` (one per app). */
function receiverOf(deps: ContextDeps): CallbackReceiver {
  let r = receivers.get(deps);
  if (!r) {
    r = new CallbackReceiver(deps);
    receivers.set(deps, r);
  }
  return r;
}

type InboxRow = typeof checkCallbackInbox.$inferSelect;

/**
 * What applying one inbox row did: its outcome, the reason of a refusal, the activity's row as
 * written (when it wrote one), and the body the inbox keeps instead of the provider's (when its
 * content may not be kept).
 */
interface Applied {
  outcome: InboxOutcome;
  error: string;
  saved?: LockedActivity['row'];
  body?: Record<string, unknown>;
}

/** The refusal of a callback about an activity whose result was redacted. */
export const NOT_KEPT_ERROR = "The activity's result was redacted: the callback was not kept.";

/**
 * A callback about an activity whose result was redacted (`reason`): not applied, its body
 * replaced in the inbox by `{redacted: reason}`; on the activity's provider log by its time,
 * type and event id only (a replay of it is a duplicate), audited as not kept (redacted.ts).
 */
async function notKept(
  ctx: ServiceContext,
  a: LockedActivity,
  row: InboxRow,
  reason: string,
): Promise<Applied> {
  const body = { redacted: reason };
  if (a.processing?.event_ids.includes(row.eventId))
    return { outcome: 'duplicate', error: '', body };
  if (!a.processing || a.kind.provider.name !== row.provider) {
    return { outcome: 'rejected', error: NOT_KEPT_ERROR, body };
  }
  const processing = withEvent(a.processing, {
    at: row.receivedAt.toISOString(),
    type: 'callback',
    event_id: row.eventId,
    body,
  });
  const saved = await logNotKept(ctx, a, processing, reason);
  return { outcome: 'rejected', error: NOT_KEPT_ERROR, saved, body };
}

/**
 * What one stored callback does to the locked activity `a` (its writes made here), with the
 * activity's row as written (still locked by this transaction) when it wrote one.
 */
async function applyOne(
  ctx: ServiceContext,
  a: LockedActivity | null,
  row: InboxRow,
): Promise<Applied> {
  // about an activity whose result was redacted: not stored (redacted.ts), its body not kept
  const reason = a ? await redactionReason(ctx, a) : null;
  if (a && reason !== null) return notKept(ctx, a, row, reason);
  const provider = a?.kind.provider;
  if (!a?.processing || provider?.name !== row.provider || !provider.callbacks) {
    return { outcome: 'rejected', error: 'Not an activity of this provider in progress.' };
  }
  const tracking = a.kind.tracking;
  const parsed = provider.callbacks.schema.safeParse(row.body);
  if (!parsed.success || !tracking) return rejectOnLog(ctx, a, row, 'Malformed callback.');
  const cb = parsed.data;
  if (a.processing.event_ids.includes(cb.event_id)) return { outcome: 'duplicate', error: '' };
  if (a.processing.reference !== cb.reference) {
    return rejectOnLog(ctx, a, row, 'The callback names another application.');
  }
  const { event_id, ...rest } = cb;
  const update = tracking.callback(rest);
  if (!update) return rejectOnLog(ctx, a, row, 'Malformed callback.');
  const processing = withEvent(a.processing, {
    at: row.receivedAt.toISOString(),
    type: 'callback',
    event_id,
    body: update.body,
  });
  if (a.row.state !== 'ca-in-progress') {
    const { activity } = await saveActivity(ctx, a, processing);
    return { outcome: 'stored', error: '', saved: activity };
  }
  const { row: saved } = await update.apply(ctx, a, processing);
  return { outcome: 'applied', error: '', saved };
}

/**
 * A callback of the activity's provider refused: kept whole in the inbox with the reason, and on
 * the activity's provider log by what identifies it only (its event id, the application it
 * names and its status: its body may be another applicant's result, and the log is shown to the
 * customer). Its event id is not added to the activity's applied ones; the inbox keeps one row
 * per event, so the provider's correction comes as a new event, or the next poll brings it.
 */
async function rejectOnLog(
  ctx: ServiceContext,
  a: LockedActivity,
  row: InboxRow,
  error: string,
): Promise<Applied> {
  if (!a.processing) return { outcome: 'rejected', error };
  const raw =
    row.body !== null && typeof row.body === 'object' && !Array.isArray(row.body)
      ? (row.body as Record<string, unknown>)
      : {};
  const said = (k: string) => (typeof raw[k] === 'string' ? String(raw[k]).slice(0, 100) : null);
  const { activity } = await saveActivity(
    ctx,
    a,
    withEvent(a.processing, {
      at: row.receivedAt.toISOString(),
      type: 'callback',
      body: {
        rejected: error,
        event_id: row.eventId,
        reference: said('reference'),
        status: said('status'),
      },
    }),
  );
  return { outcome: 'rejected', error, saved: activity };
}

/**
 * Applies, in one transaction and in the order received, up to `limit` callbacks of activity
 * `id` still waiting in the inbox, each marked with its outcome in the same transaction (a crash
 * or a retry applies nothing twice: the activity lock orders concurrent jobs, and an applied
 * row is no longer waiting). Returns how many it applied.
 */
export async function applyInbox(
  ctx: ServiceContext,
  id: number,
  limit = APPLY_BATCH,
): Promise<number> {
  let a = await lockActivity(ctx.tx, id);
  const pending = await ctx.tx
    .select()
    .from(checkCallbackInbox)
    .where(and(eq(checkCallbackInbox.caseActivityId, id), isNull(checkCallbackInbox.appliedAt)))
    .orderBy(asc(checkCallbackInbox.id))
    .limit(limit);
  const now = ctx.clock.now();
  for (const row of pending) {
    let result: Awaited<ReturnType<typeof applyOne>>;
    // Each row behind a savepoint: one the domain refuses half-way leaves no write behind.
    await txQuery(ctx.tx, 'savepoint inbox_row', []);
    try {
      result = await applyOne(ctx, a, row);
      await txQuery(ctx.tx, 'release savepoint inbox_row', []);
    } catch (err) {
      // A callback the domain refuses (not a database failure, which fails the job: its
      // transaction rolls back and the queue retries it): kept, rejected, with the reason.
      if (!(err instanceof AppError || err instanceof z.ZodError)) throw err;
      await txQuery(ctx.tx, 'rollback to savepoint inbox_row', []);
      result = { outcome: 'rejected', error: err.message.slice(0, 300) };
    }
    await ctx.tx
      .update(checkCallbackInbox)
      .set({
        appliedAt: now,
        outcome: result.outcome,
        error: result.error,
        ...(result.body ? { body: result.body } : {}),
      })
      .where(eq(checkCallbackInbox.id, row.id));
    // the next callback applies to the row as written (the lock is this transaction's still)
    if (a && result.saved) {
      a = { ...a, row: result.saved, processing: processingOf(result.saved.processingData) };
    }
  }
  return pending.length;
}

/** Rows one job applies at most (its own activity's first, then others of its customer). */
const JOB_BUDGET = 300;

/**
 * Applies the activity's waiting callbacks, then (batched: the inbox drains faster than one job
 * per callback) the oldest waiting ones of the customer's other activities, activity by
 * activity in order, up to JOB_BUDGET rows; their own jobs then find theirs applied and only
 * look for (and apply) what still waits. One transaction (the job's); a failure rolls it all
 * back and the queue retries it.
 */
export const checksCallbacksJob = serviceJob<InboxJob>({
  name: CALLBACKS_JOB,
  payload: inboxJobPayload,
  customerOf: (d) => d.customer_id,
  retry: { limit: 5, delaySeconds: 10, backoff: true },
  expireInSeconds: 120,
  handle: async (d, ctx) => {
    const [own] = await ctx.tx
      .select({ appliedAt: checkCallbackInbox.appliedAt })
      .from(checkCallbackInbox)
      .where(eq(checkCallbackInbox.id, d.inbox_id));
    let budget = JOB_BUDGET;
    // Its own callback applied by an earlier job: it still helps drain what waits (the queue is
    // then never behind by the jobs of callbacks already applied).
    while (own && !own.appliedAt) {
      const n = await applyInbox(ctx, d.case_activity_id);
      budget -= n;
      if (n < APPLY_BATCH || budget <= 0) break;
    }
    // An activity whose waiting callbacks another job applied while this one waited for its lock
    // yields nothing: the next oldest is looked for, a few times at most.
    let idle = 0;
    while (budget > 0 && idle < 10) {
      const next = await oldestWaiting(ctx);
      if (!next) return;
      const n = await applyInbox(ctx, next.caseActivityId, Math.min(APPLY_BATCH, budget));
      if (n === 0) idle++;
      budget -= n;
    }
    // Callbacks still wait (more than a job's budget, or held by another job): one more job for
    // the customer, at most one a second, so that none waits for a callback that may never come.
    const left = await oldestWaiting(ctx);
    if (left) {
      await ctx.enqueue(
        jobOf(
          { name: CALLBACKS_JOB, payload: inboxJobPayload },
          { case_activity_id: left.caseActivityId, customer_id: d.customer_id, inbox_id: left.id },
          {
            singletonKey: `callbacks-more-${d.customer_id}`,
            singletonSeconds: 1,
            startAfterSeconds: 1,
          },
        ),
      );
    }
  },
});

/** The customer's (row-level security) oldest callback still waiting, if any. */
async function oldestWaiting(ctx: ServiceContext) {
  const [row] = await ctx.tx
    .select({ id: checkCallbackInbox.id, caseActivityId: checkCallbackInbox.caseActivityId })
    .from(checkCallbackInbox)
    .where(isNull(checkCallbackInbox.appliedAt))
    .orderBy(asc(checkCallbackInbox.id))
    .limit(1);
  return row ?? null;
}

export async function checksRoutes(app: FastifyInstance): Promise<void> {
  // Each provider's callbacks: its secret (a real provider without its own has them refused),
  // its header, its scheme and its schema, from its registry entry; stored in the inbox.
  await signedWebhook(app, {
    path: CALLBACK_PATH,
    refusal: 'Invalid callback signature.',
    signing: (request: FastifyRequest<{ Params: { provider: string; id: string } }>) => {
      const provider = callbackProviderOf(request.params.provider);
      if (!provider) return null;
      const { config } = checkEngine(request.server.deps);
      const { callbacks } = provider;
      return {
        secret: config.missingCallbackSecrets.includes(callbacks.secretEnv)
          ? null
          : config.providers[provider.name].callbackSecret,
        header: callbacks.signatureHeader,
        schema: callbacks.schema,
        verify: callbacks.verify,
      };
    },
    receive: async (request, cb) => {
      const id = parseId(request.params.id);
      const provider = request.params.provider;
      const outcome = await receiverOf(request.server.deps).receive({ provider, id, cb });
      return { status: outcome };
    },
  });
}
