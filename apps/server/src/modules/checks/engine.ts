import {
  type ActivityRetryOut,
  initialProcessingData,
  isoDate,
  type ProcessingData,
  type ProcessingEvent,
  pricebookTopUp,
  providerConfigurationOf,
  withEvent,
} from '@kestrel/domain';
import { and, eq, inArray } from 'drizzle-orm';
import type { AppDeps } from '../../app-deps.js';
import type { Tx } from '../../db/connection.js';
import { NotFoundError, ValidationError } from '../../platform/errors.js';
import { runInTenant, type ServiceContext } from '../../platform/service-context.js';
import { ProviderError } from '../../providers/errors.js';
import { caseActivities } from '../activities/activities.table.js';
import { activityTypes } from '../bootstrap/bootstrap.table.js';
import { activePrices } from '../pricebooks/pricebooks.service.js';
import {
  callbackUrlOf,
  jobActorOf,
  lockProcessed,
  nowIso,
  saveActivity,
  topUpIntentJob,
  topUpResult,
} from './activity.js';
import { initiateJobName, type LockedActivity, pollJobName } from './kind.js';
import { type CheckEngine, checkEngine, pollSecondsOf, sourceOf } from './providers.js';
import { checkKindOf } from './registry.js';

/*
 * The check engine: starts the activities the subject submitted, calls providers only from jobs
 * (with the activity's idempotency key and a timeout), applies what providers answer or call
 * back, and lets the case state follow, each change in one audited transaction
 * (changeActivity). A failed start is 'ca-error-initiating', retried automatically with back-off,
 * then by operations. It knows no kind of check: each is a registry entry (registry.ts) whose
 * folder says what its start sends and what its provider's answers mean (kind.ts).
 */

export type ActivityJob = { case_activity_id: number; customer_id: number };
export type { LockedActivity } from './kind.js';

/** Locks the activity `id` (and its case) when the engine runs its kind; null otherwise. */
export async function lockActivity(tx: Tx, id: number): Promise<LockedActivity | null> {
  const a = await lockProcessed(tx, id);
  const kind = a ? checkKindOf(a.code) : null;
  return a && kind ? { ...a, kind } : null;
}

/**
 * Appends `event` to the provider log of activity `id` (locked with its case) without moving it;
 * nothing when the engine has not started it.
 */
export async function recordEvent(
  ctx: ServiceContext,
  id: number,
  event: ProcessingEvent,
): Promise<void> {
  const a = await lockActivity(ctx.tx, id);
  if (a?.processing) await saveActivity(ctx, a, withEvent(a.processing, event));
}

export const START_JOB = 'checks-start';

/** The start of `a` (or its retry), on its provider's queue (kind.ts initiateJobName). */
function initiateJob(a: LockedActivity, startAfterSeconds?: number) {
  return {
    name: initiateJobName(a.kind.provider),
    data: { case_activity_id: a.row.id, customer_id: a.row.customerId },
    ...(startAfterSeconds ? { startAfterSeconds } : {}),
  };
}

/** The next poll of `a`, on its provider's queue (kind.ts pollJobName). */
export function pollJob(a: LockedActivity, startAfterSeconds: number) {
  return {
    name: pollJobName(a.kind.provider),
    data: { case_activity_id: a.row.id, customer_id: a.row.customerId },
    singletonKey: `poll-${a.row.id}`,
    startAfterSeconds,
  };
}

/** Activity states the engine starts from on submission. */
const STARTABLE: readonly string[] = ['ca-pending', 'ca-awaiting-subject', 'ca-in-progress'];

/**
 * Sends a started activity on to its provider (in progress, its start a job), or, when its kind
 * waits for something first (its gate: verification and countersigning) and that is not done,
 * leaves it with the customer's agent ('ca-awaiting-agent') until `resumeWaiting` runs.
 */
export async function proceedOrAwaitGate(
  ctx: ServiceContext,
  a: LockedActivity,
  processing: ProcessingData,
  change: { resultData?: Record<string, unknown> } = {},
): Promise<void> {
  if (a.kind.gate && !(await a.kind.gate.ready(ctx.tx, a.row.caseId))) {
    await saveActivity(ctx, a, processing, { ...change, state: 'ca-awaiting-agent' });
    return;
  }
  await saveActivity(ctx, a, processing, { ...change, state: 'ca-in-progress' });
  await ctx.enqueue(initiateJob(a));
}

/**
 * What the case's waiting checks wait for may have happened (in that transaction): each started
 * one whose gate is now open goes to its provider; the others keep waiting.
 */
export async function resumeWaiting(ctx: ServiceContext, caseId: number): Promise<number> {
  const rows = await ctx.tx
    .select({ id: caseActivities.id })
    .from(caseActivities)
    .where(and(eq(caseActivities.caseId, caseId), eq(caseActivities.state, 'ca-awaiting-agent')));
  let resumed = 0;
  for (const { id } of rows) {
    const a = await lockActivity(ctx.tx, id);
    if (!a?.processing || a.row.state !== 'ca-awaiting-agent') continue;
    if (!a.kind.gate || a.processing.top_up?.status === 'awaiting') continue;
    if (!(await a.kind.gate.ready(ctx.tx, caseId))) continue;
    await proceedOrAwaitGate(ctx, a, a.processing);
    resumed += 1;
  }
  return resumed;
}

/**
 * Starts one submitted activity in the caller's transaction: a top-up (priced by the customer's
 * active pricebook, else the default price list) first waits for
 * payment ('Awaiting top-up payment'); a standard or enhanced application then waits for
 * countersigning; otherwise it is in progress and its start is a job.
 */
export async function startActivity(ctx: ServiceContext, id: number): Promise<void> {
  const a = await lockActivity(ctx.tx, id);
  if (!a || a.processing || !STARTABLE.includes(a.row.state)) return;
  let processing = initialProcessingData(a.kind.provider.name, `kestrel-ca-${a.row.id}`);
  // what operations configured before the start goes with the application
  const configured = providerConfigurationOf(a.row.processingData);
  if (configured) processing = { ...processing, provider_configuration: configured };
  // The customer's active pricebook prices the top-up; without one, the default price list
  // (TOP_UP_PRICE_LIST) does.
  const book = await activePrices(ctx.tx, a.row.customerId, isoDate(ctx.clock.now()));
  const demanded = pricebookTopUp(a.code, a.row.config, book?.prices ?? null);
  if (demanded) {
    const topUp = { ...demanded, status: 'awaiting' as const, payment_intent: null };
    processing = withEvent(
      { ...processing, top_up: topUp },
      { at: nowIso(ctx), type: 'top-up', body: { source: 'price-list', ...demanded } },
    );
    await saveActivity(ctx, a, processing, {
      state: 'ca-awaiting-subject',
      resultData: { ...a.row.resultData, top_up: topUpResult(topUp) },
    });
    await ctx.enqueue(topUpIntentJob(a));
    return;
  }
  await proceedOrAwaitGate(ctx, a, processing);
}

/** A provider call's outcome: its answer, or the failure (a timeout or outage is retryable). */
type Call<T> = { ok: true; answer: T } | { ok: false; error: ProviderError };

async function callProvider<T>(
  engine: CheckEngine,
  call: (signal: AbortSignal) => Promise<T>,
): Promise<Call<T>> {
  try {
    return { ok: true, answer: await call(AbortSignal.timeout(engine.config.providerTimeoutMs)) };
  } catch (err) {
    return {
      ok: false,
      error:
        err instanceof ProviderError
          ? err
          : new ProviderError(err instanceof Error ? err.message : 'Provider call failed.', true),
    };
  }
}

/** Activity states in which a start (or its retry) may run. */
const INITIATING: readonly string[] = ['ca-in-progress', 'ca-error-initiating'];

/**
 * The start job: reads the activity and builds its kind's request, calls the provider outside
 * any transaction, then applies the answer (or the failure) in a second one, if the activity
 * still waits for it.
 */
export async function initiateActivity(deps: AppDeps, job: ActivityJob): Promise<void> {
  const engine = checkEngine(deps);
  const actor = jobActorOf(job.customer_id);
  const prepared = await runInTenant(deps, actor, async (ctx) => {
    const a = await lockActivity(ctx.tx, job.case_activity_id);
    if (!a?.processing || !INITIATING.includes(a.row.state) || a.processing.reference) return null;
    if (a.processing.top_up?.status === 'awaiting') return null;
    const start = await a.kind.prepare(ctx.tx, a, {
      callbackUrl: callbackUrlOf(deps.config.publicUrl, a.kind.provider.name, a.row.id),
    });
    if (start === null) {
      await failStart(
        ctx,
        a,
        new ProviderError('The case data the check needs is missing.', false),
        {},
        engine,
      );
      return null;
    }
    return { a, start, idempotencyKey: a.processing.idempotency_key };
  });
  if (!prepared) return;
  const call = await callProvider(engine, (signal) =>
    prepared.start.send(sourceOf(engine), { idempotencyKey: prepared.idempotencyKey, signal }),
  );
  await runInTenant(deps, actor, async (ctx) => {
    let a = await lockActivity(ctx.tx, job.case_activity_id);
    const started = a?.processing;
    if (!a || !started || !INITIATING.includes(a.row.state) || started.reference) return;
    const body = prepared.start.logged;
    if (!call.ok) return failStart(ctx, a, call.error, body, engine);
    // A retry that succeeded: in progress again first (an error moves to no outcome directly).
    if (a.row.state === 'ca-error-initiating') {
      const resumed = await saveActivity(ctx, a, started, { state: 'ca-in-progress' });
      a = { ...a, row: resumed.activity };
    }
    const processing = withEvent(withEvent(started, { at: nowIso(ctx), type: 'request', body }), {
      at: nowIso(ctx),
      type: 'answer',
      body: call.answer.body,
    });
    const applied = await call.answer.apply(ctx, a, processing);
    if (applied.tracking && a.kind.tracking) {
      await ctx.enqueue(pollJob(a, pollSecondsOf(engine, a.kind.provider.name)));
    }
  });
}

/** A start failed: error-initiating, and a retry with back-off while attempts remain. */
async function failStart(
  ctx: ServiceContext,
  a: LockedActivity,
  error: ProviderError,
  body: Record<string, unknown>,
  engine: CheckEngine,
): Promise<void> {
  if (!a.processing) return;
  const attempts = a.processing.attempts + 1;
  let processing: ProcessingData = { ...a.processing, attempts, last_error: error.message };
  if (Object.keys(body).length > 0) {
    processing = withEvent(processing, { at: nowIso(ctx), type: 'request', body });
  }
  processing = withEvent(processing, {
    at: nowIso(ctx),
    type: 'error',
    body: { message: error.message, status: error.status, retryable: error.retryable, attempts },
  });
  await saveActivity(ctx, a, processing, { state: 'ca-error-initiating' });
  if (error.retryable && attempts < engine.config.maxAttempts) {
    await ctx.enqueue(initiateJob(a, 30 * 2 ** (attempts - 1)));
  }
}

/** Asks the provider how an application in progress stands, and applies the answer. */
export async function pollActivity(deps: AppDeps, job: ActivityJob): Promise<void> {
  const engine = checkEngine(deps);
  const actor = jobActorOf(job.customer_id);
  const target = await runInTenant(deps, actor, async (ctx) => {
    const a = await lockActivity(ctx.tx, job.case_activity_id);
    if (!a?.kind.tracking || a.row.state !== 'ca-in-progress' || !a.processing?.reference) {
      return null;
    }
    return { a, reference: a.processing.reference, idempotencyKey: a.processing.idempotency_key };
  });
  if (!target) return;
  const tracking = target.a.kind.tracking;
  if (!tracking) return;
  const call = await callProvider(engine, (signal) =>
    tracking.poll(sourceOf(engine), target.reference, {
      idempotencyKey: target.idempotencyKey,
      signal,
    }),
  );
  await runInTenant(deps, actor, async (ctx) => {
    const a = await lockActivity(ctx.tx, job.case_activity_id);
    if (!a?.processing || a.row.state !== 'ca-in-progress') return;
    if (!call.ok) {
      const failure = call.error.message;
      const processing = withEvent(
        { ...a.processing, last_error: failure },
        { at: nowIso(ctx), type: 'error', body: { message: failure, during: 'poll' } },
      );
      await saveActivity(ctx, a, processing);
    } else {
      const processing = withEvent(a.processing, {
        at: nowIso(ctx),
        type: 'poll',
        body: call.answer.body,
      });
      const applied = await call.answer.apply(ctx, a, processing);
      if (!applied.tracking) return;
    }
    await ctx.enqueue(pollJob(a, pollSecondsOf(engine, a.kind.provider.name)));
  });
}

/** The activities of `caseId` among `ids` the engine runs (for activitiesSubmitted). */
export async function engineActivityIds(
  tx: Tx,
  caseId: number,
  ids: readonly number[],
): Promise<number[]> {
  if (ids.length === 0) return [];
  const rows = await tx
    .select({ id: caseActivities.id, code: activityTypes.code })
    .from(caseActivities)
    .innerJoin(activityTypes, eq(activityTypes.id, caseActivities.activityTypeId))
    .where(and(eq(caseActivities.caseId, caseId), inArray(caseActivities.id, [...ids])));
  return rows.filter((r) => checkKindOf(r.code) !== null).map((r) => r.id);
}

/**
 * Operations retry an activity whose start failed: attempts reset, in progress again, its start
 * a job. Any other state is a 400 on `state`.
 */
export async function retryActivity(
  ctx: ServiceContext,
  id: number,
  reason = '',
): Promise<ActivityRetryOut> {
  const a = await lockActivity(ctx.tx, id);
  if (!a) throw new NotFoundError();
  if (a.row.state !== 'ca-error-initiating') {
    throw ValidationError.of('state', 'Only an activity whose start failed can be retried.');
  }
  const base =
    a.processing ?? initialProcessingData(a.kind.provider.name, `kestrel-ca-${a.row.id}`);
  const processing = withEvent(
    { ...base, attempts: 0, last_error: null },
    { at: ctx.clock.now().toISOString(), type: 'retry', body: { by: ctx.actor.name, reason } },
  );
  const { activity } = await saveActivity(ctx, a, processing, { state: 'ca-in-progress' });
  await ctx.enqueue(initiateJob(a));
  return { id: activity.id, state: activity.state, processing_data: processing };
}
