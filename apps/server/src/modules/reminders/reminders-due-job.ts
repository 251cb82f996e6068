import { z } from 'zod';
import type { AppDeps } from '../../app-deps.js';
import { jobActor } from '../../jobs/service-job.js';
import type { JobKind } from '../../platform/jobs.js';
import { runAsSystem, runInTenant } from '../../platform/service-context.js';
import type { ReminderDeps } from './reminder-message.js';
import {
  expireInvitation,
  findDueWork,
  sendDueReminder,
  voidClaimLinks,
} from './reminders.service.js';

/** The invitations are looked at every this many minutes. */
export const REMINDERS_DUE_EVERY_MINUTES = 5;

export function reminderDeps(deps: Pick<AppDeps, 'config' | 'sms'>): ReminderDeps {
  return { publicUrl: deps.config.publicUrl, smsTemplateId: deps.sms.templates.reminder };
}

/**
 * Sends every automatic reminder due now and expires every invitation past its expiry: the
 * system finds the cases across customers, then each case is handled in its customer's own
 * transaction as the system actor (RLS), claimed with skip locked and its reminder recorded under
 * a unique key, so two server processes (or a run after a restart) never send one twice. An
 * expired invitation's claim links are voided after its transaction. `customerId` limits the run
 * to one customer (the e2e fixture). Returns what it did.
 */
export async function runRemindersDue(
  deps: Pick<AppDeps, 'db' | 'clock' | 'config' | 'sms'>,
  customerId?: number,
): Promise<{ reminders: number; expiries: number }> {
  const now = deps.clock.now();
  const items = await runAsSystem(deps, ({ tx }) => findDueWork(tx, now));
  const rdeps = reminderDeps(deps);
  let reminders = 0;
  let expiries = 0;
  for (const item of items) {
    if (customerId !== undefined && item.customerId !== customerId) continue;
    const actor = jobActor(item.customerId);
    if (item.kind === 'reminder') {
      if (await runInTenant(deps, actor, (ctx) => sendDueReminder(ctx, rdeps, item.caseId))) {
        reminders += 1;
      }
      continue;
    }
    if (await runInTenant(deps, actor, (ctx) => expireInvitation(ctx, item.caseId))) {
      expiries += 1;
      await runAsSystem(deps, ({ tx }) => voidClaimLinks(tx, item.userId, now));
    }
  }
  return { reminders, expiries };
}

/** The queue's schedule of runRemindersDue: one run per period across the processes. */
export const remindersDueJob: JobKind<Record<string, never>, AppDeps> = {
  name: 'reminders-due',
  payload: z.object({}).strict(),
  retry: { limit: 2, delaySeconds: 30, backoff: true },
  expireInSeconds: 900,
  cron: () => `*/${REMINDERS_DUE_EVERY_MINUTES} * * * *`,
  handle: async (_data, deps) => {
    await runRemindersDue(deps);
  },
};
