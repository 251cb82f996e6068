import { randomBytes } from 'node:crypto';
import {
  BRAND_PAYMENT_KEYS,
  brandDetailsForHost,
  formatPence,
  type PaymentIntentOut,
  type PaymentIntentStatus,
  type PaymentOut,
  type PaymentOutcome,
  type PaymentPortalOut,
  type PaymentProviderName,
  paymentPortalPath,
} from '@kestrel/domain';
import { and, eq, inArray, type SQL } from 'drizzle-orm';
import type { Tx } from '../../db/connection.js';
import { recordAudit } from '../../platform/audit.js';
import { ConflictError, NotFoundError } from '../../platform/errors.js';
import type { JobRequest } from '../../platform/jobs.js';
import {
  type ContextDeps,
  runAsSystem,
  type ServiceContext,
} from '../../platform/service-context.js';
import { caseActivities } from '../activities/activities.table.js';
import { activityTypes } from '../bootstrap/bootstrap.table.js';
import { saveActivity, topUpResult } from '../checks/activity.js';
import { lockActivity } from '../checks/engine.js';
import { type PaymentsDeps, paymentProviderName, paymentsOf } from './config.js';
import { paymentIntents, type payments } from './payments.table.js';

export const INTENT_CONTENT_TYPE = 'payments.paymentintent';
export const PAYMENT_CONTENT_TYPE = 'payments.payment';

type IntentRow = typeof paymentIntents.$inferSelect;
type PaymentRow = typeof payments.$inferSelect;

const newPublicId = () => `pit_${randomBytes(18).toString('base64url')}`;

/**
 * The job that makes an intent's provider intent (provider-intent-job.ts): enqueued here by name,
 * where intents are made and opened, as the job builds on this file.
 */
export const PROVIDER_INTENT_JOB = 'payments-provider-intent';
/** After this long without its provider intent, opening the portal enqueues its job again... */
export const PROVIDER_INTENT_STALE_MS = 60_000;
/** ...at most once per this many seconds. */
export const PROVIDER_INTENT_SINGLETON_SECONDS = 30;

export function providerIntentJobOf(
  r: Pick<IntentRow, 'customerId' | 'id'>,
  options: Omit<JobRequest, 'name' | 'data'> = {},
): JobRequest {
  return {
    name: PROVIDER_INTENT_JOB,
    data: { customer_id: r.customerId, payment_intent_id: r.id },
    ...options,
  };
}

/**
 * The payment intent of an activity's awaited top-up, made once per activity (calling again
 * answers the same intent): its public id is the payment portal's link, kept in the top-up
 * (`processing_data.top_up.payment_intent`, shown as result_data.top_up.payment_id). Runs in the
 * caller's transaction (the check engine's job, or a customer's request), which also enqueues the
 * job that makes the provider's intent (never a provider call in a request or transaction).
 */
export async function createTopUpIntent(
  ctx: ServiceContext,
  caseActivityId: number,
  opts: { audit?: boolean } = {},
): Promise<{ id: string; url: string; created: boolean; row: IntentRow }> {
  const a = await lockActivity(ctx.tx, caseActivityId);
  const topUp = a?.processing?.top_up;
  if (!a?.processing || !topUp) throw new NotFoundError('No top-up awaits payment.');
  const [existing] = await ctx.tx
    .select()
    .from(paymentIntents)
    .where(
      and(
        eq(paymentIntents.customerId, a.row.customerId),
        eq(paymentIntents.caseActivityId, a.row.id),
      ),
    )
    .limit(1);
  if (existing) {
    return {
      id: existing.publicId,
      url: paymentPortalPath(existing.publicId),
      created: false,
      row: existing,
    };
  }
  if (topUp.status !== 'awaiting') throw new ConflictError('The top-up is already settled.');
  const publicId = newPublicId();
  const provider: PaymentProviderName = paymentProviderName();
  const [row] = await ctx.tx
    .insert(paymentIntents)
    .values({
      customerId: a.row.customerId,
      publicId,
      caseId: a.row.caseId,
      caseActivityId: a.row.id,
      amountPence: topUp.amount_pence,
      reason: topUp.reason,
      provider,
      // the service's clock, as its updates and the portal's look at its age
      createdAt: ctx.clock.now(),
      updatedAt: ctx.clock.now(),
    })
    .returning();
  if (!row) throw new Error('payment intent not stored');
  await ctx.enqueue(providerIntentJobOf(row));
  const withIntent = { ...topUp, payment_intent: publicId };
  await saveActivity(
    ctx,
    a,
    { ...a.processing, top_up: withIntent },
    { resultData: { ...a.row.resultData, top_up: topUpResult(withIntent) } },
  );
  if (opts.audit !== false) {
    await recordAudit(ctx.tx, ctx.actor, {
      verb: 'created',
      contentType: INTENT_CONTENT_TYPE,
      objectId: row.id,
      objectRepr: publicId,
      changes: { amount_pence: row.amountPence, case_activity: row.caseActivityId },
      customerId: row.customerId,
    });
  }
  return { id: publicId, url: paymentPortalPath(publicId), created: true, row };
}

/**
 * The payment intent of something another module sells (`purpose`, its row `purposeId`: a
 * self-initiated registration, a licence application's fee): the one awaiting payment (or paid)
 * is answered again; after a declined one, a new one. No case yet, so no activity. In the caller's transaction (a system one: subjects
 * may not add intents), which also enqueues the job making the provider's intent. The module's
 * `paymentPurposes[purpose].settle` is called by the webhook when it is paid or declined.
 */
export async function createPurposeIntent(
  ctx: ServiceContext,
  p: {
    customerId: number;
    purpose: string;
    purposeId: number;
    amountPence: number;
    reason: string;
  },
): Promise<{ row: IntentRow; url: string; created: boolean }> {
  // the one awaiting payment, or the paid one; a declined one is followed by a new intent
  const [existing] = await ctx.tx
    .select()
    .from(paymentIntents)
    .where(
      and(
        eq(paymentIntents.customerId, p.customerId),
        eq(paymentIntents.purpose, p.purpose),
        eq(paymentIntents.purposeId, p.purposeId),
        inArray(paymentIntents.outcome, ['awaiting', 'paid']),
      ),
    )
    .limit(1);
  if (existing) return { row: existing, url: paymentPortalPath(existing.publicId), created: false };
  const publicId = newPublicId();
  const [row] = await ctx.tx
    .insert(paymentIntents)
    .values({
      customerId: p.customerId,
      publicId,
      purpose: p.purpose,
      purposeId: p.purposeId,
      amountPence: p.amountPence,
      reason: p.reason.slice(0, 200),
      provider: paymentProviderName(),
      createdAt: ctx.clock.now(),
      updatedAt: ctx.clock.now(),
    })
    .returning();
  if (!row) throw new Error('payment intent not stored');
  await ctx.enqueue(providerIntentJobOf(row));
  await recordAudit(ctx.tx, ctx.actor, {
    verb: 'created',
    contentType: INTENT_CONTENT_TYPE,
    objectId: row.id,
    objectRepr: publicId,
    changes: { amount_pence: row.amountPence, purpose: p.purpose, purpose_id: p.purposeId },
    customerId: row.customerId,
  });
  return { row, url: paymentPortalPath(publicId), created: true };
}

/** Cancels a purpose's intent still awaiting payment (never a paid one); true when it did. */
export async function cancelPurposeIntent(
  ctx: ServiceContext,
  p: { customerId: number; purpose: string; purposeId: number },
): Promise<boolean> {
  const [r] = await ctx.tx
    .update(paymentIntents)
    .set({ status: 'canceled', outcome: 'declined', updatedAt: ctx.clock.now() })
    .where(
      and(
        eq(paymentIntents.customerId, p.customerId),
        eq(paymentIntents.purpose, p.purpose),
        eq(paymentIntents.purposeId, p.purposeId),
        eq(paymentIntents.outcome, 'awaiting'),
      ),
    )
    .returning();
  if (!r) return false;
  await recordAudit(ctx.tx, ctx.actor, {
    verb: 'updated',
    contentType: INTENT_CONTENT_TYPE,
    objectId: r.id,
    objectRepr: r.publicId,
    changes: { status: 'canceled', outcome: ['awaiting', 'declined'] },
    customerId: r.customerId,
  });
  return true;
}

export function intentOut(r: IntentRow): PaymentIntentOut {
  return {
    id: r.id,
    public_id: r.publicId,
    case: r.caseId,
    case_activity: r.caseActivityId,
    amount_pence: r.amountPence,
    amount_display: formatPence(r.amountPence),
    currency: 'gbp',
    description: r.reason,
    status: r.status as PaymentIntentStatus,
    outcome: r.outcome as PaymentOutcome,
    provider: r.provider as PaymentProviderName,
    provider_intent_id: r.providerIntentId,
    url: paymentPortalPath(r.publicId),
    created_at: r.createdAt.toISOString(),
    updated_at: r.updatedAt.toISOString(),
  };
}

export function paymentOutOf(p: PaymentRow): PaymentOut {
  return {
    id: p.id,
    payment_intent: p.paymentIntentId,
    case_activity: p.caseActivityId,
    amount_pence: p.amountPence,
    amount_display: formatPence(p.amountPence),
    currency: 'gbp',
    status: p.status === 'succeeded' ? 'succeeded' : 'failed',
    failure_code: p.failureCode,
    failure_message: p.failureMessage,
    provider_event_id: p.providerEventId,
    created_at: p.createdAt.toISOString(),
  };
}

/**
 * The intent `where` picks, with the name of its activity's check (what is paid for; null for an
 * intent of another purpose, which has no activity).
 */
export async function intentWithCheck(tx: Tx, where: SQL | undefined) {
  const [r] = await tx
    .select({ intent: paymentIntents, checkName: activityTypes.name })
    .from(paymentIntents)
    .leftJoin(
      caseActivities,
      and(
        eq(caseActivities.customerId, paymentIntents.customerId),
        eq(caseActivities.id, paymentIntents.caseActivityId),
      ),
    )
    .leftJoin(activityTypes, eq(activityTypes.id, caseActivities.activityTypeId))
    .where(where)
    .limit(1);
  return r ?? null;
}

/** What an intent pays for, as the portal and the provider show it. */
export function intentDescription(reason: string, checkName: string | null): string {
  return checkName === null ? reason : `${reason}: ${checkName}`;
}

/**
 * What the public payment portal shows for `publicId` on `hostname` (the brand and its payment
 * key). Only reads: the provider's intent is made by its job (provider-intent-job.ts), and until
 * then the portal has no provider intent (the page asks again). An intent still without one a
 * minute after it was made (the job's retries ran out, or its queue was lost) gets its job again,
 * at most one per PROVIDER_INTENT_SINGLETON_SECONDS: a row in the queue, no provider call. Not one
 * the provider refused (its job recorded the refusal in last_error: asking again changes nothing);
 * its page says the payment service is not available.
 */
export async function paymentPortal(
  deps: ContextDeps & PaymentsDeps,
  publicId: string,
  hostname: string,
): Promise<PaymentPortalOut> {
  const found = await runAsSystem(deps, async (ctx) => {
    const r = await intentWithCheck(ctx.tx, eq(paymentIntents.publicId, publicId));
    const i = r?.intent;
    if (
      i?.outcome === 'awaiting' &&
      !i.providerIntentId &&
      !i.lastError &&
      ctx.clock.now().getTime() - i.createdAt.getTime() > PROVIDER_INTENT_STALE_MS
    ) {
      await ctx.enqueue(
        providerIntentJobOf(i, {
          singletonKey: `provider-intent-${i.id}`,
          singletonSeconds: PROVIDER_INTENT_SINGLETON_SECONDS,
        }),
      );
    }
    return r;
  });
  if (!found) throw new NotFoundError();
  const { intent } = found;
  const { provider } = paymentsOf(deps);
  const brand = brandDetailsForHost(hostname);
  const open = intent.outcome === 'awaiting';
  return {
    id: intent.publicId,
    description: intentDescription(intent.reason, found.checkName),
    reason: intent.reason,
    check_name: found.checkName,
    amount_pence: intent.amountPence,
    amount_display: formatPence(intent.amountPence),
    currency: 'gbp',
    status: intent.status as PaymentIntentStatus,
    outcome: intent.outcome as PaymentOutcome,
    brand_name: brand.name,
    publishable_key: BRAND_PAYMENT_KEYS[brand.id],
    provider: intent.provider as PaymentProviderName,
    api_base: provider.browserApiBase,
    provider_intent_id: open ? intent.providerIntentId : null,
    client_secret: open ? intent.clientSecret : null,
    last_error: intent.lastError,
  };
}
