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
  withEvent,
} from '@kestrel/domain';
import { and, eq, sql } from 'drizzle-orm';
import type { Tx } from '../../db/connection.js';
import { recordAudit } from '../../platform/audit.js';
import { AppError, ConflictError, NotFoundError } from '../../platform/errors.js';
import {
  type ContextDeps,
  runAsSystem,
  type ServiceContext,
} from '../../platform/service-context.js';
import { PaymentsProviderError } from '../../providers/payments/provider.js';
import { SimulatorRefusal } from '../../providers/payments/simulator.js';
import { activityTypes } from '../bootstrap/bootstrap.table.js';
import { caseActivities } from '../cases/cases.table.js';
import { saveActivity, topUpResult } from '../checks/activity.js';
import { lockActivity } from '../checks/engine.js';
import { paymentsOf } from './config.js';
import { paymentIntents, type payments } from './payments.table.js';

export const INTENT_CONTENT_TYPE = 'payments.paymentintent';
export const PAYMENT_CONTENT_TYPE = 'payments.payment';

type IntentRow = typeof paymentIntents.$inferSelect;
type PaymentRow = typeof payments.$inferSelect;

const newPublicId = () => `pit_${randomBytes(18).toString('base64url')}`;

/**
 * The payment intent of an activity's awaited top-up, made once per activity (calling again
 * answers the same intent): its public id is the payment portal's link, kept in the top-up
 * (`processing_data.top_up.payment_intent`, shown as result_data.top_up.payment_id). Runs in the
 * caller's transaction (the check engine's, or a customer's request); the provider's intent is
 * made later, when the portal is opened.
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
  const provider: PaymentProviderName = paymentsOf(ctx).config.provider;
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
    })
    .returning();
  if (!row) throw new Error('payment intent not stored');
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

async function intentByPublicId(tx: Tx, publicId: string) {
  const [r] = await tx
    .select({ intent: paymentIntents, checkName: activityTypes.name })
    .from(paymentIntents)
    .innerJoin(
      caseActivities,
      and(
        eq(caseActivities.customerId, paymentIntents.customerId),
        eq(caseActivities.id, paymentIntents.caseActivityId),
      ),
    )
    .innerJoin(activityTypes, eq(activityTypes.id, caseActivities.activityTypeId))
    .where(eq(paymentIntents.publicId, publicId))
    .limit(1);
  return r ?? null;
}

/**
 * What the public payment portal shows for `publicId` on `hostname` (the brand and its payment
 * key). An awaited intent gets its provider intent here, outside any transaction of the check
 * engine: created with an idempotency key of the intent, then stored (a concurrent opening
 * stores the same one).
 */
export async function paymentPortal(
  deps: ContextDeps,
  publicId: string,
  hostname: string,
): Promise<PaymentPortalOut> {
  const found = await runAsSystem(deps, (ctx) => intentByPublicId(ctx.tx, publicId));
  if (!found) throw new NotFoundError();
  let intent = found.intent;
  const { provider, config } = paymentsOf(deps);
  if (intent.outcome === 'awaiting' && !intent.providerIntentId) {
    let created: Awaited<ReturnType<typeof provider.createIntent>>;
    const request = {
      amount_pence: intent.amountPence,
      description: `${intent.reason}: ${found.checkName}`,
      metadata: {
        kestrel_payment_intent: intent.publicId,
        case_activity: String(intent.caseActivityId),
        customer: String(intent.customerId),
      },
      idempotency_key: `kestrel-top-up-${intent.customerId}-${intent.caseActivityId}`,
    };
    try {
      created = await provider.createIntent(request, AbortSignal.timeout(config.timeoutMs));
    } catch (e) {
      if (e instanceof PaymentsProviderError || e instanceof SimulatorRefusal) {
        throw new ServiceUnavailable('The payment service is not available. Try again later.');
      }
      throw e;
    }
    intent = await runAsSystem(deps, async (ctx) => {
      const [updated] = await ctx.tx
        .update(paymentIntents)
        .set({
          providerIntentId: created.id,
          clientSecret: created.client_secret,
          status: created.status,
          updatedAt: ctx.clock.now(),
        })
        .where(
          and(
            eq(paymentIntents.customerId, intent.customerId),
            eq(paymentIntents.id, intent.id),
            sql`${paymentIntents.providerIntentId} is null`,
          ),
        )
        .returning();
      if (updated) {
        await recordAudit(ctx.tx, ctx.actor, {
          verb: 'updated',
          contentType: INTENT_CONTENT_TYPE,
          objectId: updated.id,
          objectRepr: updated.publicId,
          changes: { provider_intent_id: [null, created.id] },
          customerId: updated.customerId,
        });
        // the payment provider's request and answer, on the activity's provider log too
        const a = await lockActivity(ctx.tx, updated.caseActivityId);
        if (a?.processing) {
          await saveActivity(
            ctx,
            a,
            withEvent(a.processing, {
              at: ctx.clock.now().toISOString(),
              type: 'top-up',
              body: {
                payment_provider: updated.provider,
                request,
                answer: { id: created.id, status: created.status },
              },
            }),
          );
        }
      }
      const [again] = updated
        ? [updated]
        : await ctx.tx
            .select()
            .from(paymentIntents)
            .where(
              and(
                eq(paymentIntents.customerId, intent.customerId),
                eq(paymentIntents.id, intent.id),
              ),
            );
      return again ?? intent;
    });
  }
  // An awaited intent the browser left in its 3-D Secure challenge (the back button): the
  // provider knows where to continue; the webhook has not settled it yet.
  let challengeUrl: string | null = null;
  if (intent.outcome === 'awaiting' && intent.providerIntentId) {
    const live = await provider
      .retrieveIntent(intent.providerIntentId, AbortSignal.timeout(config.timeoutMs))
      .catch(() => null);
    if (live?.status === 'requires_action' && live.next_action) {
      challengeUrl = live.next_action.redirect_to_url.url;
    }
  }
  const brand = brandDetailsForHost(hostname);
  const open = intent.outcome === 'awaiting';
  return {
    id: intent.publicId,
    description: `${intent.reason}: ${found.checkName}`,
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
    challenge_url: open ? challengeUrl : null,
  };
}

/** 503 with the error shape: the provider cannot be reached now. */
export class ServiceUnavailable extends AppError {
  constructor(detail: string) {
    super(503, { detail });
  }
}
