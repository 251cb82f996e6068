import { randomBytes } from 'node:crypto';
import type { Tx } from '../../db/connection.js';
import { paymentIntents, payments } from './payments.table.js';

// Payments factories (owner or ops transaction): tests (the route walk's tenancy fixtures) build
// rows with them. A payment intent belongs to an existing case activity.

export interface IntentInput {
  customerId: number;
  caseId: number;
  caseActivityId: number;
  amountPence?: number;
  outcome?: 'awaiting' | 'paid' | 'declined';
}

export async function createPaymentIntent(tx: Tx, input: IntentInput) {
  const paid = input.outcome === 'paid';
  const [row] = await tx
    .insert(paymentIntents)
    .values({
      customerId: input.customerId,
      publicId: `pit_${randomBytes(18).toString('base64url')}`,
      caseId: input.caseId,
      caseActivityId: input.caseActivityId,
      amountPence: input.amountPence ?? 350,
      reason: 'Paper certificate by post',
      provider: 'simulator',
      status: paid ? 'succeeded' : 'requires_payment_method',
      outcome: input.outcome ?? 'awaiting',
    })
    .returning();
  if (!row) throw new Error('payment intent insert returned nothing');
  return row;
}

/** A payment the provider reported for `intent` (succeeded unless told). */
export async function createPayment(
  tx: Tx,
  intent: typeof paymentIntents.$inferSelect,
  status: 'succeeded' | 'failed' = 'succeeded',
) {
  const [row] = await tx
    .insert(payments)
    .values({
      customerId: intent.customerId,
      paymentIntentId: intent.id,
      caseId: intent.caseId,
      caseActivityId: intent.caseActivityId,
      amountPence: intent.amountPence,
      status,
      failureCode: status === 'failed' ? 'card_declined' : null,
      providerEventId: `evt_factory_${randomBytes(9).toString('base64url')}`,
    })
    .returning();
  if (!row) throw new Error('payment insert returned nothing');
  return row;
}
