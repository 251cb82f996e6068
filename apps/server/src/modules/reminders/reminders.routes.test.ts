// @postgres: two app instances running the due job at once send each reminder once (skip locked, unique key)
import { INVITATION_NOT_EXPIRED, REMINDER_MESSAGES_OFF, REMINDER_TOO_SOON } from '@kestrel/domain';
import { and, eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  anonymous,
  buildTestApp,
  type Client,
  createAdminAndViewer,
  createCase,
  createCustomer,
  createProcess,
  createProductUser,
  createSubjectUser,
  login,
  type TestApp,
} from '../../../test/helpers.js';
import { auditActions } from '../../platform/tables/audit.table.js';
import { outboxEmails } from '../../platform/tables/outbox.table.js';
import { caseActivities } from '../activities/activities.table.js';
import { cases } from '../cases/cases.table.js';
import { processes } from '../processes/processes.table.js';
import { subjectUsers } from '../users/users.table.js';
import { caseReminders, outboxSms } from './reminders.table.js';
import { runRemindersDue } from './reminders-due-job.js';

let t: TestApp;
let acme: number;
let other: number;
let theirs: Client;

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const schedule = { daily_days: 2, then_every_days: 7, max_reminders: 3 };

const admin = () => login(t.app, 'admin@acme.test');
const viewer = () => login(t.app, 'viewer@acme.test');
const call = (c: Client, method: 'GET' | 'POST', url: string) =>
  t.app.inject({ method, url, headers: c.headers, ...(method === 'POST' ? { payload: {} } : {}) });
const run = () => runRemindersDue(t.app.deps);
/** Runs the due job; how many reminders case `caseId` then has. */
const runFor = async (caseId: number) => {
  await run();
  return (await remindersOf(caseId)).length;
};
const remindersOf = (caseId: number) =>
  t.owner((tx) => tx.select().from(caseReminders).where(eq(caseReminders.caseId, caseId)));
const mailsTo = (to: string) =>
  t.owner((tx) => tx.select().from(outboxEmails).where(eq(outboxEmails.to, to)));
const textsTo = (to: string) =>
  t.owner((tx) => tx.select().from(outboxSms).where(eq(outboxSms.to, to)));
const auditsOf = (caseId: number, verb: string) =>
  t.owner((tx) =>
    tx
      .select()
      .from(auditActions)
      .where(
        and(
          eq(auditActions.contentType, 'cases.case'),
          eq(auditActions.objectId, String(caseId)),
          eq(auditActions.verb, verb),
        ),
      ),
  );

/** A process of acme's with these reminder settings. */
async function processWith(settings: Partial<typeof processes.$inferInsert>, customerId = acme) {
  return t.owner(async (tx) => {
    const p = await createProcess(tx, { customerId, requirements: ['basic-details', 'dbs-basic'] });
    await tx
      .update(processes)
      .set({ updatedAt: new Date(), ...settings })
      .where(eq(processes.id, p.id));
    return p.id;
  });
}

/** A case of acme's opened now (by the test clock), its subject unclaimed unless `password`. */
let seq = 0;
async function openCase(
  processId: number,
  subject: { email: string; phoneNumber?: string; password?: string | null } = {
    email: `person-${++seq}@example.test`,
  },
  customerId = acme,
) {
  return t.owner(async (tx) => {
    const s = await createSubjectUser(tx, {
      customerId,
      email: subject.email,
      password: subject.password === undefined ? null : subject.password,
      ...(subject.phoneNumber !== undefined ? { phoneNumber: subject.phoneNumber } : {}),
    });
    const c = await createCase(tx, {
      customerId,
      processId,
      subjectId: s.id,
      createdAt: t.clock.now(),
    });
    return { caseId: c.id, subjectId: s.id, userId: s.userId, email: subject.email };
  });
}

beforeAll(async () => {
  t = await buildTestApp({ config: { jobWorkers: false } });
  await t.owner(async (tx) => {
    acme = (await createCustomer(tx, { name: 'Acme' })).id;
    other = (await createCustomer(tx, { name: 'Other' })).id;
    await createAdminAndViewer(tx, acme);
    await createAdminAndViewer(tx, other, 'other.test');
    await createProductUser(tx, { customerId: null, username: 'ops@k.test', roles: ['ops'] });
  });
  theirs = await login(t.app, 'admin@other.test');
});
afterAll(() => t.close());

describe('the process sets the cadence, the expiry and text messages', () => {
  it('saves and shows them; refuses a bad cadence', async () => {
    const a = await admin();
    const made = await t.app.inject({
      method: 'POST',
      url: '/api/processes/',
      headers: a.headers,
      payload: { name: 'Reminded', reminder_schedule: schedule, invitation_expiry_days: 14 },
    });
    expect(made.statusCode).toBe(201);
    expect(made.json()).toMatchObject({
      reminder_schedule: schedule,
      invitation_expiry_days: 14,
      reminder_sms: false,
    });
    const id = made.json().id;
    const patched = await t.app.inject({
      method: 'PATCH',
      url: `/api/processes/${id}/`,
      headers: a.headers,
      payload: { reminder_sms: true, reminder_schedule: null },
    });
    expect(patched.statusCode).toBe(200);
    expect(patched.json()).toMatchObject({ reminder_sms: true, reminder_schedule: null });
    const bad = await t.app.inject({
      method: 'PATCH',
      url: `/api/processes/${id}/`,
      headers: a.headers,
      payload: { reminder_schedule: { ...schedule, max_reminders: 0 }, invitation_expiry_days: -1 },
    });
    expect(bad.statusCode).toBe(400);
    expect(Object.keys(bad.json()).sort()).toEqual([
      'invitation_expiry_days',
      'reminder_schedule.max_reminders',
    ]);
  });
});

describe('automatic reminders (a moved clock)', () => {
  it('follow the cadence: daily first, then every N days, up to the limit; audited', async () => {
    const p = await processWith({ reminderSchedule: schedule });
    const c = await openCase(p);
    expect(await runFor(c.caseId)).toBe(0);
    t.clock.advance(DAY + 60_000);
    expect(await runFor(c.caseId)).toBe(1);
    expect(await runFor(c.caseId)).toBe(1); // once
    t.clock.advance(DAY);
    expect(await runFor(c.caseId)).toBe(2);
    t.clock.advance(DAY);
    expect(await runFor(c.caseId)).toBe(2); // the next is weekly: day 9
    t.clock.advance(6 * DAY);
    expect(await runFor(c.caseId)).toBe(3);
    t.clock.advance(30 * DAY);
    expect(await runFor(c.caseId)).toBe(3); // the limit of 3
    const rows = await remindersOf(c.caseId);
    expect(rows.map((r) => [r.round, r.number, r.channels])).toEqual([
      [0, 1, 'email'],
      [0, 2, 'email'],
      [0, 3, 'email'],
    ]);
    await t.settle();
    const mails = await mailsTo(c.email);
    expect(mails).toHaveLength(3);
    expect(mails[0]?.subject).toBe('Reminder: Your Kestrel Checks account');
    expect(mails[0]?.text).toContain('/auth/claim-account?token=');
    const audits = await auditsOf(c.caseId, 'reminder_sent');
    expect(audits.map((x) => x.changes)).toEqual([
      { to: c.email, automatic: true, number: 1, channels: 'email' },
      { to: c.email, automatic: true, number: 2, channels: 'email' },
      { to: c.email, automatic: true, number: 3, channels: 'email' },
    ]);
    expect(audits[0]).toMatchObject({ actorType: null, actorName: 'system', customerId: acme });
  });

  it('wait until the subject has done nothing in the portal for 24 hours', async () => {
    const p = await processWith({ reminderSchedule: schedule });
    const c = await openCase(p, {
      email: 'active@example.test',
      password: 'kestrel-test-password',
    });
    t.clock.advance(DAY - HOUR);
    await login(t.app, c.email); // the subject signs in 23 hours after the invitation
    t.clock.advance(2 * HOUR);
    expect(await runFor(c.caseId)).toBe(0); // due by the cadence, but the subject was active
    t.clock.advance(22 * HOUR);
    expect(await runFor(c.caseId)).toBe(1);
    await t.settle();
    expect((await mailsTo(c.email))[0]?.subject).toBe('Reminder: checks requested by Acme');
  });

  it('never within 24 hours of a manual reminder, and the manual one never twice in 24 hours', async () => {
    const p = await processWith({ reminderSchedule: schedule });
    const c = await openCase(p);
    t.clock.advance(20 * HOUR);
    const a = await admin();
    const first = await call(a, 'POST', `/api/cases/${c.caseId}/send-reminder/`);
    expect(first.statusCode).toBe(200);
    const again = await call(a, 'POST', `/api/cases/${c.caseId}/send-reminder/`);
    expect(again.statusCode).toBe(400);
    expect(again.json()).toEqual({ non_field_errors: [REMINDER_TOO_SOON] });
    t.clock.advance(23 * HOUR); // the cadence's first is due (day 1), the manual one went 23 h ago
    expect(await runFor(c.caseId)).toBe(0);
    t.clock.advance(HOUR + 60_000);
    expect(await runFor(c.caseId)).toBe(1);
    const b = await admin();
    const manual = await call(b, 'POST', `/api/cases/${c.caseId}/send-reminder/`);
    expect(manual.statusCode).toBe(400); // the automatic one just went
    expect(manual.json()).toEqual({ non_field_errors: [REMINDER_TOO_SOON] });
  });

  it('a manual reminder to a subject who turned the messages off is refused, nothing sent', async () => {
    const p = await processWith({});
    const c = await openCase(p);
    await t.owner((tx) =>
      tx
        .update(subjectUsers)
        .set({ dbsEmailNotifications: false })
        .where(eq(subjectUsers.id, c.userId)),
    );
    const a = await admin();
    const res = await call(a, 'POST', `/api/cases/${c.caseId}/send-reminder/`);
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ non_field_errors: [REMINDER_MESSAGES_OFF] });
    await t.settle();
    expect(await mailsTo(c.email)).toEqual([]);
    const [row] = await t.owner((tx) => tx.select().from(cases).where(eq(cases.id, c.caseId)));
    expect(row?.lastReminderAt).toBeNull();
  });

  it('a process without a cadence sends none', async () => {
    const p = await processWith({});
    const c = await openCase(p);
    t.clock.advance(40 * DAY);
    await run();
    expect(await remindersOf(c.caseId)).toEqual([]);
  });

  it('two server processes send each reminder once', async () => {
    const p = await processWith({ reminderSchedule: schedule }, other);
    const opened = [];
    for (let i = 0; i < 5; i++) {
      opened.push(await openCase(p, { email: `twin-${i}@example.test` }, other));
    }
    t.clock.advance(DAY + 60_000);
    const twin = await t.twin();
    const done = await Promise.all([
      runRemindersDue(t.app.deps, other),
      runRemindersDue(twin.deps, other),
      runRemindersDue(t.app.deps, other),
    ]);
    expect(done.reduce((n, d) => n + d.reminders, 0)).toBe(5);
    const ids = opened.map((o) => o.caseId);
    const rows = await t.owner((tx) =>
      tx.select().from(caseReminders).where(inArray(caseReminders.caseId, ids)),
    );
    expect(rows).toHaveLength(5);
    await t.settle();
    for (const o of opened) expect(await mailsTo(o.email)).toHaveLength(1);
  });
});

describe('text messages', () => {
  it('go with the email to a mobile number when the process says so, as the subject prefers', async () => {
    const p = await processWith({ reminderSchedule: schedule, reminderSms: true });
    const mobile = await openCase(p, { email: 'mobile@example.test', phoneNumber: '07911 123457' });
    const landline = await openCase(p, {
      email: 'landline@example.test',
      phoneNumber: '020 7946 0018',
    });
    const quiet = await openCase(p, { email: 'quiet@example.test', phoneNumber: '07911 123458' });
    await t.owner((tx) =>
      tx
        .update(subjectUsers)
        .set({ dbsEmailNotifications: false })
        .where(eq(subjectUsers.id, quiet.userId)),
    );
    t.clock.advance(DAY + 60_000);
    await run();
    await t.settle();
    const texts = await textsTo('+447911123457');
    expect(texts).toHaveLength(1);
    expect(texts[0]).toMatchObject({
      body: 'Kestrel Checks: Acme is waiting for you to complete your checks. Please see the email we sent to mobile@example.test.',
      templateId: 'kestrel-case-reminder',
      brand: 'Kestrel Checks',
      reference: `case-${mobile.caseId}`,
    });
    expect(await mailsTo('mobile@example.test')).toHaveLength(1);
    expect((await remindersOf(landline.caseId)).map((r) => r.channels)).toEqual(['email']);
    expect(await textsTo('+442079460018')).toEqual([]);
    // no reminder of either kind to a subject who turned the messages off (the row still counts)
    expect((await remindersOf(quiet.caseId)).map((r) => r.channels)).toEqual(['none']);
    expect(await mailsTo('quiet@example.test')).toEqual([]);
    expect(await textsTo('+447911123458')).toEqual([]);
    // the ops outbox shows them beside the emails; the customer's staff may not
    const ops = await login(t.app, 'ops@k.test');
    const listed = await call(ops, 'GET', '/api/ops/outbox-sms/?to=%2B447911123457');
    expect(listed.statusCode).toBe(200);
    expect(listed.json()).toMatchObject({ count: 1 });
    expect(listed.json().results[0]).toMatchObject({
      to: '+447911123457',
      reference: `case-${mobile.caseId}`,
      template_id: 'kestrel-case-reminder',
    });
    expect((await call(await admin(), 'GET', '/api/ops/outbox-sms/')).statusCode).toBe(403);
  });
});

describe('invitation expiry and resend', () => {
  it('moves the activities to the customer, voids the link; a resend sends a new one', async () => {
    const p = await processWith({ invitationExpiryDays: 3 });
    const c = await openCase(p, { email: 'late@example.test' });
    const a = await admin();
    // the subject's link (a manual reminder's)
    expect((await call(a, 'POST', `/api/cases/${c.caseId}/send-reminder/`)).statusCode).toBe(200);
    await t.settle();
    const tokenOf = (text: string) => /token=([^\s&"]+)/.exec(text)?.[1] ?? '';
    const oldToken = tokenOf((await mailsTo(c.email))[0]?.text ?? '');
    expect(oldToken).not.toBe('');
    const before = await call(a, 'GET', `/api/cases/${c.caseId}/invitation/`);
    expect(before.json()).toMatchObject({ is_expired: false, resends: 0, expired_at: null });
    expect((await call(a, 'POST', `/api/cases/${c.caseId}/resend-invitation/`)).json()).toEqual({
      non_field_errors: [INVITATION_NOT_EXPIRED],
    });

    t.clock.advance(2 * DAY);
    await run();
    expect(await auditsOf(c.caseId, 'invitation_expired')).toHaveLength(0);
    t.clock.advance(DAY + 60_000);
    await run();
    await run();
    const states = () =>
      t.owner((tx) =>
        tx
          .select({ state: caseActivities.state })
          .from(caseActivities)
          .where(eq(caseActivities.caseId, c.caseId)),
      );
    expect((await states()).map((s) => s.state)).toEqual([
      'ca-awaiting-agent',
      'ca-awaiting-agent',
    ]);
    const [row] = await t.owner((tx) => tx.select().from(cases).where(eq(cases.id, c.caseId)));
    expect(row?.state).toBe('in-progress');
    const claim = async (token: string) =>
      t.app.inject({
        method: 'POST',
        url: '/api/user/claim-account/',
        headers: (await anonymous(t.app)).headers,
        payload: { token, password: 'a-long-new-password-1' },
      });
    expect((await claim(oldToken)).json()).toEqual({ token: ['Invalid or expired token'] });
    const b = await admin();
    const expired = await call(b, 'GET', `/api/cases/${c.caseId}/invitation/`);
    expect(expired.json()).toMatchObject({ is_expired: true, next_reminder_at: null });
    expect(await auditsOf(c.caseId, 'invitation_expired')).toHaveLength(1);

    // permissions and tenancy
    theirs = await login(t.app, 'admin@other.test');
    expect(
      (await call(await viewer(), 'POST', `/api/cases/${c.caseId}/resend-invitation/`)).statusCode,
    ).toBe(403);
    expect(
      (await call(theirs, 'POST', `/api/cases/${c.caseId}/resend-invitation/`)).statusCode,
    ).toBe(404);
    expect((await call(theirs, 'GET', `/api/cases/${c.caseId}/invitation/`)).statusCode).toBe(404);

    const resent = await call(b, 'POST', `/api/cases/${c.caseId}/resend-invitation/`);
    expect(resent.statusCode).toBe(200);
    expect((await states()).map((s) => s.state)).toEqual([
      'ca-awaiting-subject',
      'ca-awaiting-subject',
    ]);
    await t.settle();
    const mails = await mailsTo(c.email);
    expect(mails).toHaveLength(2);
    expect(mails[1]?.subject).toBe('Your Kestrel Checks account');
    const newToken = tokenOf(mails[1]?.text ?? '');
    expect(newToken).not.toBe(oldToken);
    expect((await claim(oldToken)).statusCode).toBe(400);
    expect((await auditsOf(c.caseId, 'invitation_resent'))[0]?.changes).toMatchObject({
      to: c.email,
      round: 1,
    });
    const now = await call(b, 'GET', `/api/cases/${c.caseId}/invitation/`);
    expect(now.json()).toMatchObject({ is_expired: false, resends: 1, reminders_sent: 0 });
    // a new round: it expires 3 days after the resend
    expect(new Date(now.json().expires_at).getTime()).toBe(t.clock.now().getTime() + 3 * DAY);
    expect((await claim(newToken)).statusCode).toBe(200);
  });

  it('a viewer reads the invitation; an anonymous caller is refused', async () => {
    const p = await processWith({});
    const c = await openCase(p);
    const v = await call(await viewer(), 'GET', `/api/cases/${c.caseId}/invitation/`);
    expect(v.statusCode).toBe(200);
    const anon = await t.app.inject({ method: 'GET', url: `/api/cases/${c.caseId}/invitation/` });
    expect(anon.statusCode).toBe(401);
  });
});
