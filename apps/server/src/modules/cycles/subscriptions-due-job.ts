import { z } from 'zod';
import type { AppDeps } from '../../app-deps.js';
import { jobActor } from '../../jobs/service-job.js';
import type { JobKind } from '../../platform/jobs.js';
import { runAsSystem, runInTenant } from '../../platform/service-context.js';
import { customersDue, DUE_BATCH, runDueBatch } from './subscriptions.service.js';

/** The subscriptions' due dates are looked at every this many minutes. */
export const SUBSCRIPTIONS_DUE_EVERY_MINUTES = 5;

/**
 * Turns every subscription due now into its period's case (and bills the billing periods due):
 * the customers with one due are found by the system, then each customer's are claimed in
 * batches in that customer's own transactions (RLS), as its jobs run. Two server processes (or
 * a run after a restart) never open a period's case twice: each batch claims its rows with
 * `for update skip locked` and records the period under a unique key in the case's transaction.
 * Returns how many subscriptions were handled.
 */
export async function runSubscriptionsDue(
  deps: Pick<AppDeps, 'db' | 'clock' | 'config'>,
): Promise<number> {
  const now = deps.clock.now();
  const ids = await runAsSystem(deps, ({ tx }) => customersDue(tx, now));
  const mail = { publicUrl: deps.config.publicUrl };
  let total = 0;
  for (const customerId of ids) {
    for (;;) {
      const n = await runInTenant(deps, jobActor(customerId), (ctx) => runDueBatch(ctx, mail));
      total += n;
      if (n < DUE_BATCH) break;
    }
  }
  return total;
}

/** The queue's schedule of runSubscriptionsDue: one run per period across the processes. */
export const subscriptionsDueJob: JobKind<Record<string, never>, AppDeps> = {
  name: 'subscriptions-due',
  payload: z.object({}).strict(),
  retry: { limit: 2, delaySeconds: 30, backoff: true },
  expireInSeconds: 900,
  cron: () => `*/${SUBSCRIPTIONS_DUE_EVERY_MINUTES} * * * *`,
  handle: async (_data, deps) => {
    await runSubscriptionsDue(deps);
  },
};
