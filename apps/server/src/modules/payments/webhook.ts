import { PAYMENT_INTENT_STATUSES } from '@kestrel/domain';
import { and, eq } from 'drizzle-orm';
import { z } from 'zod';
import { recordAudit } from '../../platform/audit.js';
import { ConflictError, NotFoundError, ValidationError } from '../../platform/errors.js';
import type { ServiceContext } from '../../platform/service-context.js';
import { SETTLING_EVENTS, type SettlingEvent } from '../../providers/payments/provider.js';
import { settleTopUp } from '../checks/top-up.js';
import { paymentIntents, payments } from './payments.table.js';
import { INTENT_CONTENT_TYPE, PAYMENT_CONTENT_TYPE } from './service.js';

/** Where the provider posts its signed webhooks: outside /api/ (no session, no CSRF token). */
export const WEBHOOK_PATH = '/webhooks/payments/';

/** A webhook event, the fields Kestrel reads (Stripe's Event with a PaymentIntent). */
export const paymentEventSchema = z.object({
  id: z.string().min(1).max(100),
  type: z.string().min(1).max(100),
  created: z.number().int(),
  data: z.object({
    object: z.object({
      id: z.string().min(1).max(100),
      amount: z.number().int().nonnegative(),
      currency: z.string().max(3),
      status: z.enum(PAYMENT_INTENT_STATUSES),
      last_payment_error: z
        .object({ code: z.string().max(100).optional(), message: z.string().max(500).optional() })
        .nullable()
        .optional(),
    }),
  }),
});
export type PaymentEventIn = z.infer<typeof paymentEventSchema>;

const isSettling = (t: string): t is SettlingEvent =>
  (SETTLING_EVENTS as readonly string[]).includes(t);

export type WebhookOutcome = 'settled' | 'stored' | 'duplicate' | 'ignored';

/**
 * One verified event, in one transaction: the payment stored (its event id unique: a replay
 * changes nothing), the intent updated, and the top-up settled through the check engine
 * (settleTopUp, paid or declined) in the same transaction; anything refused rolls it all back.
 */
export async function receivePaymentEvent(
  ctx: ServiceContext,
  event: PaymentEventIn,
): Promise<WebhookOutcome> {
  if (!isSettling(event.type)) return 'ignored';
  const pi = event.data.object;
  const [intent] = await ctx.tx
    .select()
    .from(paymentIntents)
    .where(eq(paymentIntents.providerIntentId, pi.id))
    .for('update');
  if (!intent) throw new NotFoundError('No such payment intent.');
  if (pi.amount !== intent.amountPence || pi.currency !== intent.currency) {
    throw ValidationError.of(
      'data.object.amount',
      'The amount or currency does not match the payment intent.',
    );
  }
  const succeeded = event.type === 'payment_intent.succeeded';
  if (succeeded !== (pi.status === 'succeeded')) {
    throw ValidationError.of('data.object.status', 'The status does not match the event.');
  }
  const error = succeeded ? null : (pi.last_payment_error ?? null);
  const [stored] = await ctx.tx
    .insert(payments)
    .values({
      customerId: intent.customerId,
      paymentIntentId: intent.id,
      caseId: intent.caseId,
      caseActivityId: intent.caseActivityId,
      amountPence: pi.amount,
      status: succeeded ? 'succeeded' : 'failed',
      failureCode: error?.code ?? (succeeded ? null : 'payment_failed'),
      failureMessage: error?.message ?? null,
      providerEventId: event.id,
    })
    .onConflictDoNothing({ target: payments.providerEventId })
    .returning();
  if (!stored) return 'duplicate';
  await recordAudit(ctx.tx, ctx.actor, {
    verb: 'created',
    contentType: PAYMENT_CONTENT_TYPE,
    objectId: stored.id,
    objectRepr: `${intent.publicId} ${stored.status}`,
    changes: { amount_pence: stored.amountPence, status: stored.status, event: event.id },
    customerId: intent.customerId,
  });
  const outcome = succeeded ? 'paid' : 'declined';
  if (intent.outcome !== 'awaiting') {
    if (intent.outcome === outcome) return 'stored';
    throw new ConflictError('The payment intent is already settled.');
  }
  const lastError = error?.message ?? (succeeded ? null : 'The payment failed.');
  await ctx.tx
    .update(paymentIntents)
    .set({ status: pi.status, outcome, lastError, updatedAt: ctx.clock.now() })
    .where(and(eq(paymentIntents.customerId, intent.customerId), eq(paymentIntents.id, intent.id)));
  await recordAudit(ctx.tx, ctx.actor, {
    verb: 'updated',
    contentType: INTENT_CONTENT_TYPE,
    objectId: intent.id,
    objectRepr: intent.publicId,
    changes: { status: [intent.status, pi.status], outcome: [intent.outcome, outcome] },
    customerId: intent.customerId,
  });
  await settleTopUp(ctx, intent.caseActivityId, outcome, intent.publicId);
  return 'settled';
}
