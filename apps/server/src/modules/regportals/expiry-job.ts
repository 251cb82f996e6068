import { z } from 'zod';
import type { AppDeps } from '../../app-deps.js';
import { jobActor } from '../../jobs/service-job.js';
import type { JobKind } from '../../platform/jobs.js';
import { type ContextDeps, runAsSystem, runInTenant } from '../../platform/service-context.js';
import { cancelRegistrationPayment } from './registration-payment.js';
import { customersWithExpiry, EXPIRY_BATCH, expireBatch } from './registrations.service.js';

/** Registrations past their expiry are looked for every this many minutes. */
export const REGISTRATION_EXPIRY_EVERY_MINUTES = 10;

/**
 * Expires every registration that did not come to a case within REGISTRATION_EXPIRY_HOURS of
 * its start (at `now`, the clock's by default): the customers with one are found by the system,
 * then each customer's are expired in batches in its own transactions (RLS), their payment
 * intents then cancelled by the system. Idempotent: a registration moves to 'expired' once (only
 * from an open state, claimed with `skip locked`). Returns how many were expired.
 */
export async function runRegistrationExpiry(
  deps: ContextDeps,
  now: Date = deps.clock.now(),
): Promise<number> {
  const ids = await runAsSystem(deps, ({ tx }) => customersWithExpiry(tx, now));
  let total = 0;
  for (const customerId of ids) {
    for (;;) {
      const expired = await runInTenant(deps, jobActor(customerId), (ctx) => expireBatch(ctx, now));
      // their payment intents cancelled by the system (still awaiting only: never a paid one)
      const withIntent = expired.filter((r) => r.paymentIntentId !== null);
      if (withIntent.length > 0) {
        await runAsSystem(deps, async (ctx) => {
          for (const r of withIntent) await cancelRegistrationPayment(ctx, r);
        });
      }
      total += expired.length;
      if (expired.length < EXPIRY_BATCH) break;
    }
  }
  return total;
}

/** The queue's schedule of runRegistrationExpiry. */
export const registrationExpiryJob: JobKind<Record<string, never>, AppDeps> = {
  name: 'registration-expiry',
  payload: z.object({}).strict(),
  retry: { limit: 2, delaySeconds: 30, backoff: true },
  expireInSeconds: 600,
  cron: () => `*/${REGISTRATION_EXPIRY_EVERY_MINUTES} * * * *`,
  handle: async (_data, deps) => {
    await runRegistrationExpiry(deps);
  },
};
