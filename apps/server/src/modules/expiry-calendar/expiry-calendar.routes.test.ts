// @postgres: two app instances running the expiry-reminders job at once send each reminder once (unique key per step)
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
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
import { auditActions } from '../../platform/tables/audit.table.js';
import { outboxEmails } from '../../platform/tables/outbox.table.js';
import { caseActivities } from '../activities/activities.table.js';
import { casePassports } from '../case-data/case-data.table.js';
import { subjectConsents } from '../portal/consents.table.js';
import { subjects } from '../subjects/subjects.table.js';
import { productUsers, subjectUsers } from '../users/users.table.js';
import { expiryReminders } from './expiry-reminders.table.js';
import { runExpiryReminders } from './expiry-reminders-job.js';

let t: TestApp;
let acme: number;
let other: number;
const DAY = 86_400_000;
const dayIn = (n: number) => new Date(t.clock.now().getTime() + n * DAY).toISOString().slice(0, 10);

const get = async (url: string, who = 'admin@acme.test') => {
  const c = await login(t.app, who);
  return t.app.inject({ method: 'GET', url, headers: c.headers });
};
const mailsTo = (to: string) =>
  t.owner((tx) => tx.select().from(outboxEmails).where(eq(outboxEmails.to, to)));

/** A case of `customerId` for a new subject `email`, its activities rtw and driver-data. */
async function caseFor(customerId: number, email: string, firstName: string) {
  return t.owner(async (tx) => {
    const p = await createProcess(tx, { customerId, requirements: ['rtw', 'driver-data'] });
    const s = await createSubjectUser(tx, { customerId, email, firstName, lastName: 'Example' });
    const c = await createCase(tx, {
      customerId,
      processId: p.id,
      subjectId: s.id,
      activityStates: ['ca-complete', 'ca-in-progress'],
    });
    const acts = await tx
      .select()
      .from(caseActivities)
      .where(eq(caseActivities.caseId, c.id))
      .orderBy(caseActivities.position);
    return { caseId: c.id, subjectId: s.id, rtw: acts[0]?.id ?? 0, dvla: acts[1]?.id ?? 0 };
  });
}

let ada: Awaited<ReturnType<typeof caseFor>>;
let bob: Awaited<ReturnType<typeof caseFor>>;

beforeAll(async () => {
  t = await buildTestApp({ config: { jobWorkers: false } });
  await t.owner(async (tx) => {
    acme = (await createCustomer(tx, { name: 'Acme' })).id;
    await createProductUser(tx, { customerId: null, username: 'ops@expiry.test', roles: ['ops'] });
    other = (await createCustomer(tx, { name: 'Other' })).id;
    await createAdminAndViewer(tx, acme);
    await createAdminAndViewer(tx, other, 'other.test');
  });
  ada = await caseFor(acme, 'ada@expiry.test', 'Ada');
  bob = await caseFor(acme, 'bob@expiry.test', 'Bob');
  const theirs = await caseFor(other, 'zed@expiry.test', 'Zed');
  await t.owner(async (tx) => {
    // Ada: a time-limited right to work ending in 20 days, a DVLA mandate in 60, a passport in 40
    await tx
      .update(caseActivities)
      .set({ resultData: { outcome: 'time-limited', expiry_date: dayIn(20) } })
      .where(eq(caseActivities.id, ada.rtw));
    const given = new Date(t.clock.now().getTime() + 60 * DAY);
    given.setUTCFullYear(given.getUTCFullYear() - 3);
    await tx.insert(subjectConsents).values({
      customerId: acme,
      caseId: ada.caseId,
      caseActivityId: ada.dvla,
      kind: 'driver-data',
      givenAt: given,
      expiresAt: new Date(t.clock.now().getTime() + 60 * DAY),
    });
    await tx.insert(casePassports).values({
      customerId: acme,
      caseId: ada.caseId,
      number: '123456789',
      expiryDate: dayIn(40),
    });
    // Bob: a passport in 200 days (outside the 90); Zed (another customer): one in 10
    await tx.insert(casePassports).values({
      customerId: acme,
      caseId: bob.caseId,
      number: '987654321',
      expiryDate: dayIn(200),
    });
    await tx
      .insert(casePassports)
      .values({ customerId: other, caseId: theirs.caseId, number: '555', expiryDate: dayIn(10) });
  });
});
afterAll(() => t.close());

describe('the expiry calendar', () => {
  it('lists the next 90 days by date: right to work, passport, DVLA mandate; own customer only', async () => {
    const res = await get('/api/expiry-calendar/');
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.days).toBe(90);
    expect(body.until).toBe(dayIn(90));
    expect(
      body.results.map((r: { kind: string; days_left: number }) => [r.kind, r.days_left]),
    ).toEqual([
      ['right-to-work', 20],
      ['passport', 40],
      ['dvla-consent', 60],
    ]);
    expect(body.results[1]).toMatchObject({
      subject_name: 'Ada Example',
      subject_email: 'ada@expiry.test',
      case_id: ada.caseId,
      reference: '…6789',
      kind_label: 'Passport',
    });
    const year = (await get('/api/expiry-calendar/?days=365')).json();
    expect(year.count).toBe(4);
    const theirs = (await get('/api/expiry-calendar/', 'admin@other.test')).json();
    expect(theirs.results.map((r: { subject_email: string }) => r.subject_email)).toEqual([
      'zed@expiry.test',
    ]);
  });

  it('filters by kind and by name or email; refuses a bad query', async () => {
    const passports = (await get('/api/expiry-calendar/?days=365&kind=passport')).json();
    expect(passports.results.map((r: { subject_email: string }) => r.subject_email)).toEqual([
      'ada@expiry.test',
      'bob@expiry.test',
    ]);
    const bob = (await get('/api/expiry-calendar/?days=365&search=BOB')).json();
    expect(bob.count).toBe(1);
    const bad = await get('/api/expiry-calendar/?days=0&kind=visa');
    expect(bad.statusCode).toBe(400);
    expect(Object.keys(bad.json()).sort()).toEqual(['days', 'kind']);
    // up to ten years ahead (a passport's life; a renewed DVLA mandate ends in three)
    const ten = await get('/api/expiry-calendar/?days=3653');
    expect(ten.statusCode).toBe(200);
    expect(ten.json()).toMatchObject({ days: 3653, until: dayIn(3653), count: 4 });
    const beyond = await get('/api/expiry-calendar/?days=3654');
    expect(beyond.statusCode).toBe(400);
    expect(beyond.json()).toEqual({ days: ['Enter at most 3653 days.'] });
    expect((await t.app.inject({ method: 'GET', url: '/api/expiry-calendar/' })).statusCode).toBe(
      401,
    );
  });

  it('exports the list as CSV, audited', async () => {
    const res = await get('/api/expiry-calendar/export/?kind=passport');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('text/csv');
    expect(res.body.split('\r\n')).toEqual([
      'Expires on,Days left,What,Subject,Email,Case,Reference',
      `${dayIn(40)},40,Passport,Ada Example,ada@expiry.test,${ada.caseId},…6789`,
      '',
    ]);
    const audits = await t.owner((tx) =>
      tx
        .select()
        .from(auditActions)
        .where(and(eq(auditActions.customerId, acme), eq(auditActions.verb, 'exported'))),
    );
    expect(audits.map((a) => a.objectRepr)).toContain('Expiry calendar: 1 items');
  });

  it('refuses operations staff who act for no customer (the export is audited in one), never a 500', async () => {
    // found by the fuzz test: the audit of an export needs the customer it came from
    const res = await get('/api/expiry-calendar/export/', 'ops@expiry.test');
    expect(res.statusCode).toBe(403);
  });
});

describe('expiry reminders (a moved clock)', () => {
  it('remind the subject and the customer at each step once; the DVLA mandate asks to re-consent', async () => {
    expect(await runExpiryReminders(t.app.deps, acme)).toEqual({ reminders: 3 });
    // a second server process the same morning sends nothing again
    const twin = await t.twin();
    expect(await runExpiryReminders(twin.deps, acme)).toEqual({ reminders: 0 });
    const steps = await t.owner((tx) =>
      tx.select().from(expiryReminders).where(eq(expiryReminders.customerId, acme)),
    );
    expect(steps.map((s) => [s.kind, s.step]).sort()).toEqual([
      ['dvla-consent', 90],
      ['passport', 90],
      ['right-to-work', 30],
    ]);
    await t.settle();
    const subjectMails = await mailsTo('ada@expiry.test');
    expect(subjectMails).toHaveLength(3);
    const dvla = subjectMails.find(
      (m) => m.subject === 'Please renew your consent for driving licence checks',
    );
    expect(dvla?.text).toContain('/s/dvla-reconsent');
    const admin = await mailsTo('admin@acme.test');
    expect(admin.map((m) => m.subject)).toEqual(['3 items expire soon']);
    expect(admin[0]?.text).toContain('Right to work (time-limited), Ada Example');

    // the other customer's passport (10 days left) is its own customer's
    expect(await runExpiryReminders(t.app.deps, other)).toEqual({ reminders: 1 });

    // 15 days on: the right to work (5 days left) and the passport (25) reach their next step
    t.clock.advance(15 * DAY);
    expect(await runExpiryReminders(t.app.deps, acme)).toEqual({ reminders: 2 });
    expect(await runExpiryReminders(t.app.deps, acme)).toEqual({ reminders: 0 });
    await t.settle();
    expect(await mailsTo('zed@expiry.test')).toHaveLength(1);
    expect((await mailsTo('admin@acme.test')).map((m) => m.subject)).toContain(
      '2 items expire soon',
    );
  });

  it("follow each person's choice: no email to a subject or an administrator who turned them off", async () => {
    // Bob turned the product's emails off; Acme's administrator turned notifications off
    await t.owner(async (tx) => {
      const [row] = await tx
        .select({ userId: subjects.userId })
        .from(subjects)
        .where(eq(subjects.id, bob.subjectId));
      if (!row?.userId) throw new Error('Bob has no login');
      await tx
        .update(subjectUsers)
        .set({ dbsEmailNotifications: false })
        .where(eq(subjectUsers.id, row.userId));
      await tx
        .update(productUsers)
        .set({ notifications: false })
        .where(eq(productUsers.username, 'admin@acme.test'));
    });
    const adminBefore = (await mailsTo('admin@acme.test')).length;
    // 100 days on (115 in all): Bob's passport (200 days ahead at the start) is 85 days away
    t.clock.advance(100 * DAY);
    expect(await runExpiryReminders(t.app.deps, acme)).toEqual({ reminders: 1 });
    await t.settle();
    // the step counts (never sent later), but no one is emailed
    const steps = await t.owner((tx) =>
      tx
        .select()
        .from(expiryReminders)
        .where(
          and(
            eq(expiryReminders.customerId, acme),
            eq(expiryReminders.itemKey, String(bob.caseId)),
          ),
        ),
    );
    expect(steps.map((r) => [r.kind, r.step])).toEqual([['passport', 90]]);
    expect(await mailsTo('bob@expiry.test')).toEqual([]);
    expect(await mailsTo('admin@acme.test')).toHaveLength(adminBefore);
    expect(await runExpiryReminders(t.app.deps, acme)).toEqual({ reminders: 0 });
  });
});
