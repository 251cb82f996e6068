import { withEvent } from '@kestrel/domain';
import { ConflictError, NotFoundError } from '../../platform/errors.js';
import type { ServiceContext } from '../../platform/service-context.js';
import { saveActivity, topUpResult } from './activity.js';
import { lockActivity, proceedOrAwaitGate } from './engine.js';

/**
 * Settles an activity's awaited top-up (payments calls it from its webhook, in its transaction):
 * paid, the check goes on (its start is a job: the provider learns of the payment); declined, the
 * activity waits for the customer's decision. Settling again the same way is a no-op (a webhook
 * delivered twice); a different settlement of a settled top-up is a 409.
 */
export async function settleTopUp(
  ctx: ServiceContext,
  caseActivityId: number,
  outcome: 'paid' | 'declined',
  paymentIntentId: string,
): Promise<void> {
  const a = await lockActivity(ctx.tx, caseActivityId);
  const topUp = a?.processing?.top_up;
  if (!a?.processing || !topUp) throw new NotFoundError('No top-up awaits payment.');
  if (topUp.status !== 'awaiting') {
    if (topUp.status === outcome && topUp.payment_intent === paymentIntentId) return;
    throw new ConflictError('The top-up is already settled.');
  }
  const settled = { ...topUp, status: outcome, payment_intent: paymentIntentId };
  let processing = withEvent(
    { ...a.processing, top_up: settled },
    {
      at: ctx.clock.now().toISOString(),
      type: 'top-up',
      body: { outcome, payment_intent: paymentIntentId },
    },
  );
  const resultData = { ...a.row.resultData, top_up: topUpResult(settled) };
  if (outcome === 'declined') {
    await saveActivity(ctx, a, processing, {
      state: 'ca-pending-activity-decision',
      resultData,
    });
    return;
  }
  // A new submission (the provider may have answered the unpaid one): a new idempotency key.
  processing = {
    ...processing,
    idempotency_key: `${processing.idempotency_key}-paid-${paymentIntentId}`.slice(0, 100),
    reference: null,
  };
  await proceedOrAwaitGate(ctx, a, processing, { resultData });
}
