import { z } from 'zod';
import type { AppDeps } from '../../app-deps.js';
import { jobActor } from '../../jobs/service-job.js';
import type { JobKind } from '../../platform/jobs.js';
import { runAsSystem, runInTenant } from '../../platform/service-context.js';
import { customers } from '../customers/customers.table.js';
import { escalateOverdue } from './escalation.service.js';

/**
 * Escalates every customer's overdue checks (or `customerId`'s only), each customer in its own
 * tenant transaction as the system actor. Returns how many checks were escalated.
 */
export async function runEscalations(
  deps: Pick<AppDeps, 'db' | 'clock'>,
  customerId?: number,
): Promise<{ escalated: number }> {
  const ids = await runAsSystem(deps, ({ tx }) => tx.select({ id: customers.id }).from(customers));
  let escalated = 0;
  for (const { id } of ids) {
    if (customerId !== undefined && id !== customerId) continue;
    escalated += await runInTenant(deps, jobActor(id), (ctx) => escalateOverdue(ctx, id));
  }
  return { escalated };
}

/** The queue's schedule of runEscalations: every hour, at a quarter past. */
export const escalationsJob: JobKind<Record<string, never>, AppDeps> = {
  name: 'checks-overdue',
  payload: z.object({}).strict(),
  retry: { limit: 2, delaySeconds: 120, backoff: true },
  expireInSeconds: 1800,
  cron: () => '15 * * * *',
  handle: async (_data, deps) => {
    await runEscalations(deps);
  },
};
