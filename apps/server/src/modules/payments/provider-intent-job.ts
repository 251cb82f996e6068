import type { ProcessingEvent } from '@kestrel/domain';
import { and, eq, type SQL, sql } from 'drizzle-orm';
import { z } from 'zod';
import type { AppDeps } from '../../app-deps.js';
import { jobActor } from '../../jobs/service-job.js';
import { recordAudit } from '../../platform/audit.js';
import type { JobKind } from '../../platform/jobs.js';
import { runAsSystem } from '../../platform/service-context.js';
import {
  type CreateIntentInput,
  PaymentsProviderError,
  type ProviderPaymentIntent,
} from '../../providers/payments/provider.js';
import { SimulatorRefusal } from '../../providers/payments/simulator.js';
import { recordEvent } from '../checks/engine.js';
import { paymentsOf } from './config.js';
import { paymentIntents } from './payments.table.js';
import {
  INTENT_CONTENT_TYPE,
  intentDescription,
  intentWithCheck,
  PROVIDER_INTENT_JOB,
} from './service.js';

const payload = z.object({
  customer_id: z.number().int().positive(),
  payment_intent_id: z.number().int().positive(),
});
export type ProviderIntentJob = z.infer<typeof payload>;

/**
 * Makes an awaited payment intent's provider intent (the id and client secret the payment page
 * confirms with), as the check engine starts an activity: the intent read in one transaction, the
 * provider asked outside any (with the activity's idempotency key, so a retry or a second job
 * makes no second provider intent), the answer stored in another only while the intent has none
 * (a concurrent job stores the same one), with its audit record and the request and answer on
 * the activity's provider log. An intent settled, already made or refused needs nothing. A call
 * that failed for a while (an outage, a timeout) throws: the queue retries the job. A refusal
 * (the provider will answer the same however often it is asked) is recorded instead, not retried:
 * the intent's last_error (the portal no longer enqueues it, the page says the payment service is
 * not available), its audit record and an error on the activity's provider log. The transactions
 * are the system's, in the intent's customer's name (a tenant may add intents but not change
 * them: the webhook and this job do).
 */
export async function makeProviderIntent(deps: AppDeps, job: ProviderIntentJob): Promise<void> {
  const actor = jobActor(job.customer_id);
  const theIntent = and(
    eq(paymentIntents.customerId, job.customer_id),
    eq(paymentIntents.id, job.payment_intent_id),
  );
  const found = await runAsSystem(deps, (ctx) => intentWithCheck(ctx.tx, theIntent), actor);
  if (
    found?.intent.outcome !== 'awaiting' ||
    found.intent.providerIntentId ||
    found.intent.lastError
  ) {
    return;
  }
  const { intent } = found;
  const request: CreateIntentInput = {
    amount_pence: intent.amountPence,
    description: intentDescription(intent.reason, found.checkName),
    metadata: {
      kestrel_payment_intent: intent.publicId,
      ...(intent.caseActivityId !== null
        ? { case_activity: String(intent.caseActivityId) }
        : { purpose: intent.purpose, purpose_id: String(intent.purposeId) }),
      customer: String(intent.customerId),
    },
    // a top-up's key is its activity's (as before); another purpose's, its intent's (a fee
    // declined is asked again with a new intent)
    idempotency_key:
      intent.caseActivityId !== null
        ? `kestrel-top-up-${intent.customerId}-${intent.caseActivityId}`
        : `kestrel-${intent.purpose}-${intent.customerId}-${intent.purposeId}-${intent.id}`,
  };
  const { provider, config } = paymentsOf(deps);
  let created: ProviderPaymentIntent;
  try {
    created = await provider.createIntent(request, AbortSignal.timeout(config.timeoutMs));
  } catch (e) {
    if (!isRefusal(e)) throw e;
    await recordRefusal(deps, job, e.message);
    return;
  }
  await storeOnIntent(
    deps,
    job,
    [sql`${paymentIntents.providerIntentId} is null`],
    {
      providerIntentId: created.id,
      clientSecret: created.client_secret,
      status: created.status,
    },
    { provider_intent_id: [null, created.id] },
    (updated) => ({
      type: 'top-up',
      // the payment provider's request and answer, on the activity's provider log too
      body: {
        payment_provider: updated.provider,
        request,
        answer: { id: created.id, status: created.status },
      },
    }),
  );
}

type IntentRow = typeof paymentIntents.$inferSelect;

/**
 * Writes `set` on the job's intent while `still` holds (in the system's transaction, in the
 * customer's name), with its audit record (`changes`) and the event it makes on the activity's
 * provider log; nothing when the intent no longer qualifies (another job or the webhook won).
 */
async function storeOnIntent(
  deps: AppDeps,
  job: ProviderIntentJob,
  still: SQL[],
  set: Partial<IntentRow>,
  changes: Record<string, unknown>,
  event: (updated: IntentRow) => Pick<ProcessingEvent, 'type' | 'body'>,
): Promise<void> {
  await runAsSystem(
    deps,
    async (ctx) => {
      const [updated] = await ctx.tx
        .update(paymentIntents)
        .set({ ...set, updatedAt: ctx.clock.now() })
        .where(
          and(
            eq(paymentIntents.customerId, job.customer_id),
            eq(paymentIntents.id, job.payment_intent_id),
            ...still,
          ),
        )
        .returning();
      if (!updated) return;
      await recordAudit(ctx.tx, ctx.actor, {
        verb: 'updated',
        contentType: INTENT_CONTENT_TYPE,
        objectId: updated.id,
        objectRepr: updated.publicId,
        changes,
        customerId: updated.customerId,
      });
      // a top-up's provider log is its activity's; an intent of another purpose has none
      if (updated.caseActivityId !== null) {
        await recordEvent(ctx, updated.caseActivityId, {
          at: ctx.clock.now().toISOString(),
          ...event(updated),
        });
      }
    },
    jobActor(job.customer_id),
  );
}

/**
 * A provider's refusal, which asking again will not change: Stripe's 4xx (not 409 or 429, which
 * pass), or the simulator's refusal. Outages, timeouts and anything else are retried.
 */
function isRefusal(e: unknown): e is Error {
  if (e instanceof PaymentsProviderError) return !e.retryable;
  return e instanceof SimulatorRefusal && e.status < 500 && e.status !== 409 && e.status !== 429;
}

/** A refusal to make the provider's intent: on the intent (last_error) and the provider log. */
async function recordRefusal(deps: AppDeps, job: ProviderIntentJob, message: string) {
  await storeOnIntent(
    deps,
    job,
    [
      eq(paymentIntents.outcome, 'awaiting'),
      sql`${paymentIntents.providerIntentId} is null`,
      sql`${paymentIntents.lastError} is null`,
    ],
    { lastError: message },
    { last_error: [null, message] },
    () => ({ type: 'error', body: { message, during: 'payment-intent' } }),
  );
}

/** Makes the provider's intent of a payment intent (createTopUpIntent enqueues it). */
export const providerIntentJob: JobKind<ProviderIntentJob, AppDeps> = {
  name: PROVIDER_INTENT_JOB,
  payload,
  retry: { limit: 5, delaySeconds: 10, backoff: true },
  expireInSeconds: 60,
  handle: (data, deps) => makeProviderIntent(deps, data),
};
