// Issue 33: "Product users' `notifications` profile field and subjects' `dbs_email_notifications`
// decide what they receive; security messages always go." A password reset and an invitation's
// link reach a person who turned the product's messages off; a reminder does not (the contrast
// proves the setting is really off for them).
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  anonymous,
  buildTestApp,
  createAdminAndViewer,
  createCase,
  createCustomer,
  createProcess,
  createProductUser,
  createSubjectUser,
  login,
  type TestApp,
} from '../../../test/helpers.js';
import { outboxEmails } from '../../platform/tables/outbox.table.js';
import { processes } from '../processes/processes.table.js';
import { productUsers, subjectUsers } from '../users/users.table.js';
import { caseReminders } from './reminders.table.js';
import { runRemindersDue } from './reminders-due-job.js';

let t: TestApp;
let acme: number;
const DAY = 24 * 3_600_000;

const mailsTo = (to: string) =>
  t.owner((tx) => tx.select().from(outboxEmails).where(eq(outboxEmails.to, to)));
const tokenIn = (text: string | undefined) => /token=([^\s&"]+)/.exec(text ?? '')?.[1] ?? '';

async function askReset(email: string) {
  const anon = await anonymous(t.app);
  const res = await t.app.inject({
    method: 'POST',
    url: '/api/accounts/password-reset/',
    headers: anon.headers,
    payload: { email },
  });
  expect(res.statusCode).toBe(200);
  await t.settle();
}

beforeAll(async () => {
  t = await buildTestApp({ config: { jobWorkers: false } });
  await t.owner(async (tx) => {
    acme = (await createCustomer(tx, { name: 'Acme' })).id;
    await createAdminAndViewer(tx, acme);
    await createProductUser(tx, { customerId: acme, username: 'quiet-user@acme.test' });
    await tx
      .update(productUsers)
      .set({ notifications: false })
      .where(eq(productUsers.username, 'quiet-user@acme.test'));
  });
});
afterAll(() => t.close());

describe('security messages go whatever the notification settings', () => {
  it('a product user with notifications off gets the password reset link', async () => {
    const [u] = await t.owner((tx) =>
      tx.select().from(productUsers).where(eq(productUsers.username, 'quiet-user@acme.test')),
    );
    expect(u?.notifications).toBe(false);
    await askReset('quiet-user@acme.test');
    const mails = await mailsTo('quiet-user@acme.test');
    expect(mails).toHaveLength(1);
    expect(tokenIn(mails[0]?.text)).not.toBe('');
  });

  it('subjects with dbs_email_notifications off get the reset link and the invitation, not a reminder', async () => {
    const claimed = 'quiet-subject@example.test';
    const unclaimed = 'quiet-new@example.test';
    const [caseOfClaimed, caseOfUnclaimed] = await t.owner(async (tx) => {
      const p = await createProcess(tx, {
        customerId: acme,
        requirements: ['basic-details', 'dbs-basic'],
      });
      await tx
        .update(processes)
        .set({
          reminderSchedule: { daily_days: 2, then_every_days: 7, max_reminders: 3 },
          invitationExpiryDays: 3,
        })
        .where(eq(processes.id, p.id));
      const ids: number[] = [];
      for (const [email, password] of [
        [claimed, undefined],
        [unclaimed, null],
      ] as const) {
        const s = await createSubjectUser(tx, { customerId: acme, email, password });
        const c = await createCase(tx, {
          customerId: acme,
          processId: p.id,
          subjectId: s.id,
          createdAt: t.clock.now(),
        });
        if (s.userId === null) throw new Error('the subject has no login');
        await tx
          .update(subjectUsers)
          .set({ dbsEmailNotifications: false })
          .where(eq(subjectUsers.id, s.userId));
        ids.push(c.id);
      }
      return ids;
    });

    // the reset link goes (to the subject with a password: an unclaimed login has none to reset)
    await askReset(claimed);
    const reset = await mailsTo(claimed);
    expect(reset).toHaveLength(1);
    expect(reset[0]?.text).toContain('password-reset-confirm?token=');

    // an automatic reminder does not (recorded as sent on no channel)
    t.clock.advance(DAY + 60_000);
    await runRemindersDue(t.app.deps);
    await t.settle();
    for (const caseId of [caseOfClaimed, caseOfUnclaimed]) {
      const reminders = await t.owner((tx) =>
        tx
          .select()
          .from(caseReminders)
          .where(eq(caseReminders.caseId, caseId ?? 0)),
      );
      expect(reminders.map((r) => r.channels)).toEqual(['none']);
    }
    expect(await mailsTo(claimed)).toHaveLength(1);
    expect(await mailsTo(unclaimed)).toHaveLength(0);

    // the invitations expire; the customer's resend still reaches each subject with its link
    t.clock.advance(3 * DAY);
    await runRemindersDue(t.app.deps);
    await t.settle();
    const a = await login(t.app, 'admin@acme.test');
    for (const caseId of [caseOfClaimed, caseOfUnclaimed]) {
      const resent = await t.app.inject({
        method: 'POST',
        url: `/api/cases/${caseId}/resend-invitation/`,
        headers: a.headers,
        payload: {},
      });
      expect(resent.json()).toEqual({ detail: 'Invitation sent' });
    }
    await t.settle();
    const toClaimed = await mailsTo(claimed);
    expect(toClaimed).toHaveLength(2);
    expect(toClaimed[1]?.subject).toBe('Checks requested by Acme');
    expect(toClaimed[1]?.text).toContain(`/s/cases/${caseOfClaimed}`);
    const toUnclaimed = await mailsTo(unclaimed);
    expect(toUnclaimed).toHaveLength(1);
    expect(toUnclaimed[0]?.text).toContain('/auth/claim-account');
    expect(tokenIn(toUnclaimed[0]?.text)).not.toBe('');
  });
});
