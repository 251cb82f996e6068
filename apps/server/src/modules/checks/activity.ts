import {
  type CaseActivityState,
  type ProcessingData,
  processingDataSchema,
  sameJson,
  type TopUp,
  type TopUpResult,
} from '@kestrel/domain';
import type { Tx } from '../../db/connection.js';
import { jobActor } from '../../jobs/service-job.js';
import type { Actor } from '../../platform/context.js';
import type { ServiceContext } from '../../platform/service-context.js';
import {
  type ActivityLock,
  lockActivity,
  writeActivity,
} from '../activities/activities.service.js';
import type { LockedActivity, ProcessedActivity } from './kind.js';

/*
 * What the engine and every kind of check write an activity with: its processing data (the
 * provider log, audited by the event appended) with its moves and result (writeActivity: the
 * domain's transitions, one write and one audit row, the case following), each in the caller's
 * transaction.
 */

/** The engine's processing data of a row, or null when the engine has not started it. */
export function processingOf(data: unknown): ProcessingData | null {
  const parsed = processingDataSchema.safeParse(data);
  return parsed.success ? parsed.data : null;
}

/**
 * Locks activity `id` with its case (the activities module's lock) and reads the engine's
 * processing data: what a kind's own routes use before saveActivity (they know their kind; the
 * engine's lockActivity adds it from the registry). Null when there is no such activity.
 */
export async function lockProcessed(tx: Tx, id: number): Promise<ProcessedActivity | null> {
  const a = await lockActivity(tx, id);
  return a ? { ...a, processing: processingOf(a.row.processingData) } : null;
}

export const nowIso = (ctx: Pick<ServiceContext, 'clock'>) => ctx.clock.now().toISOString();
export const today = (ctx: Pick<ServiceContext, 'clock'>) =>
  ctx.clock.now().toISOString().slice(0, 10);

/**
 * Writes the activity's new processing data and, when they change, its state and result data:
 * one UPDATE of the activity (locked with its case by the caller) and one audit row, which says
 * of the provider log only the event appended (not the whole log, which would double every
 * callback's cost); a move goes through the domain's transitions and the case follows
 * (writeActivity).
 */
export async function saveActivity(
  ctx: ServiceContext,
  a: ActivityLock,
  processing: ProcessingData,
  change: { state?: CaseActivityState; resultData?: Record<string, unknown> } = {},
) {
  const last = processing.events.at(-1);
  const state = change.state && change.state !== a.row.state ? change.state : undefined;
  const resultData =
    change.resultData && !sameJson(change.resultData, a.row.resultData)
      ? change.resultData
      : undefined;
  const written = await writeActivity(
    ctx.tx,
    ctx.actor,
    a,
    {
      state,
      result_data: resultData,
      processing_data: processingDataSchema.parse(processing),
      processingAudit: {
        event: last ? { at: last.at, type: last.type, event_id: last.event_id ?? null } : null,
        reference: processing.reference,
        attempts: processing.attempts,
      },
    },
    ctx.clock.now(),
  );
  return { activity: written.activity };
}

/**
 * The job that makes an awaited top-up's payment intent (and so its payment link): a kind of
 * payments' (modules/payments/top-up-job.ts), enqueued here by name so the engine never imports
 * payments (which builds on the engine).
 */
export const TOP_UP_INTENT_JOB = 'payments-top-up-intent';

export function topUpIntentJob(a: LockedActivity) {
  return {
    name: TOP_UP_INTENT_JOB,
    data: { case_activity_id: a.row.id, customer_id: a.row.customerId },
  };
}

/** The result panel's mirror of a top-up (status, amount, payment id). */
export function topUpResult(t: TopUp | null): TopUpResult | null {
  return t ? { status: t.status, amount: t.amount_pence, payment_id: t.payment_intent } : null;
}

/** Where providers post their signed callbacks: outside /api/ (no session, no CSRF token). */
export const CALLBACK_PATH = '/callbacks/checks/:provider/:id/';

/** Where `provider` posts the callbacks of activity `id`. */
export function callbackUrlOf(base: string, provider: string, id: number): string {
  return base + CALLBACK_PATH.replace(':provider', provider).replace(':id', String(id));
}

/** The actor of the engine's jobs within a customer (a job's actor, named for the audit). */
export function jobActorOf(customerId: number): Actor {
  return { ...jobActor(customerId), name: 'check engine' };
}
