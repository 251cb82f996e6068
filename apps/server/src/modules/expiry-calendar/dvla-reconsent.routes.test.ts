import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  buildTestApp,
  type Client,
  createAdminAndViewer,
  createCase,
  createCustomer,
  createProcess,
  createSubjectUser,
  login,
  type TestApp,
} from '../../../test/helpers.js';
import { auditActions } from '../../platform/tables/audit.table.js';
import { outboxEmails } from '../../platform/tables/outbox.table.js';
import { caseActivities } from '../activities/activities.table.js';
import { CONSENT_MESSAGES } from '../portal/consents.service.js';
import { subjectConsents } from '../portal/consents.table.js';
import { expiryReminders } from './expiry-reminders.table.js';
import { runExpiryReminders } from './expiry-reminders-job.js';

// The subject's DVLA re-consent (issue 33, /s/dvla-reconsent): the mandates due across the
// customers holding the person, the renewal (a new 3-year consent), the customer told, the
// expiry calendar and its reminders moving on from the old date.

let t: TestApp;
let acme: number;
let other: number;
let ada: Client;
let bob: Client;
const DAY = 86_400_000;

/** A case of `customerId` for the record `subjectId` with one driver-data check; its ids. */
async function driverCase(customerId: number, subjectId: number) {
  return t.owner(async (tx) => {
    const p = await createProcess(tx, { customerId, requirements: ['driver-data'] });
    const c = await createCase(tx, {
      customerId,
      processId: p.id,
      subjectId,
      activityStates: ['ca-complete'],
    });
    const [a] = await tx.select().from(caseActivities).where(eq(caseActivities.caseId, c.id));
    return { caseId: c.id, activityId: a?.id ?? 0 };
  });
}

/** A DVLA mandate of that case ending in `daysLeft` days (given 3 years before). */
async function mandate(
  customerId: number,
  c: { caseId: number; activityId: number },
  daysLeft: number,
  extra: { withdrawnAt?: Date } = {},
) {
  const expiresAt = new Date(t.clock.now().getTime() + daysLeft * DAY);
  const givenAt = new Date(expiresAt);
  givenAt.setUTCFullYear(givenAt.getUTCFullYear() - 3);
  const [row] = await t.owner((tx) =>
    tx
      .insert(subjectConsents)
      .values({
        customerId,
        caseId: c.caseId,
        caseActivityId: c.activityId,
        kind: 'driver-data',
        givenAt,
        expiresAt,
        ...extra,
      })
      .returning(),
  );
  return row?.id ?? 0;
}

let acmeDue: number; // Ada's at Acme, 20 days left
let otherExpired: number; // Ada's at Other, ended 10 days ago
let acmeFresh: number; // Ada's at Acme, 2 years left
let bobDue: number; // Bob's at Acme, 5 days left
let withdrawn: number; // Ada's at Other, withdrawn
let acmeCase: number;

beforeAll(async () => {
  t = await buildTestApp({ config: { jobWorkers: false } });
  const records = await t.owner(async (tx) => {
    acme = (await createCustomer(tx, { name: 'Acme' })).id;
    other = (await createCustomer(tx, { name: 'Other' })).id;
    await createAdminAndViewer(tx, acme);
    await createAdminAndViewer(tx, other, 'other.test');
    const email = 'ada@renew.test';
    return {
      adaAcme: (await createSubjectUser(tx, { customerId: acme, email, firstName: 'Ada' })).id,
      adaOther: (await createSubjectUser(tx, { customerId: other, email, firstName: 'Ada' })).id,
      bob: (await createSubjectUser(tx, { customerId: acme, email: 'bob@renew.test' })).id,
    };
  });
  const a1 = await driverCase(acme, records.adaAcme);
  acmeCase = a1.caseId;
  const a2 = await driverCase(acme, records.adaAcme);
  const o1 = await driverCase(other, records.adaOther);
  const o2 = await driverCase(other, records.adaOther);
  const b1 = await driverCase(acme, records.bob);
  acmeDue = await mandate(acme, a1, 20);
  acmeFresh = await mandate(acme, a2, 730);
  otherExpired = await mandate(other, o1, -10);
  withdrawn = await mandate(other, o2, 15, { withdrawnAt: t.clock.now() });
  bobDue = await mandate(acme, b1, 5);
  ada = await login(t.app, 'ada@renew.test');
  bob = await login(t.app, 'bob@renew.test');
});
afterAll(() => t.close());

const call = (c: Client | null, method: 'GET' | 'POST', url: string, payload?: object) =>
  t.app.inject({ method, url, headers: c?.headers ?? {}, ...(payload ? { payload } : {}) });
const renew = (c: Client, consent: unknown) =>
  call(c, 'POST', '/api/s/dvla-reconsent/', { consent });
const due = async (c: Client) =>
  (await call(c, 'GET', '/api/s/dvla-reconsent/')).json().results as {
    id: number;
    customer_name: string;
    status: string;
    expires_at: string;
  }[];
/** Acme's calendar of DVLA mandates over its 3-year window (a renewal's new date within it). */
const calendar = async (who = 'admin@acme.test') => {
  const c = await login(t.app, who);
  const res = await call(c, 'GET', '/api/expiry-calendar/?kind=dvla-consent&days=1096');
  expect(res.statusCode).toBe(200);
  return res.json().results as { reference: string; expires_on: string }[];
};
const mailsTo = (to: string) =>
  t.owner((tx) => tx.select().from(outboxEmails).where(eq(outboxEmails.to, to)));

describe('GET /api/s/dvla-reconsent/', () => {
  it("lists the person's mandates due across the customers holding them, each read in its tenant", async () => {
    const list = await due(ada);
    expect(list.map((c) => [c.id, c.customer_name, c.status])).toEqual([
      [otherExpired, 'Other', 'expired'],
      [acmeDue, 'Acme', 'expiring'],
    ]);
    // not the fresh one, nor the withdrawn one; nor Bob's
    expect(list.some((c) => c.id === acmeFresh || c.id === withdrawn || c.id === bobDue)).toBe(
      false,
    );
    expect((await due(bob)).map((c) => c.id)).toEqual([bobDue]);
  });

  it('is for subjects only', async () => {
    const admin = await login(t.app, 'admin@acme.test');
    expect((await call(admin, 'GET', '/api/s/dvla-reconsent/')).statusCode).toBe(403);
    expect((await call(null, 'GET', '/api/s/dvla-reconsent/')).statusCode).toBe(401);
  });
});

describe('POST /api/s/dvla-reconsent/', () => {
  it('is for the subject whose consent it is: staff 403, another person 404', async () => {
    const admin = await login(t.app, 'admin@acme.test');
    expect((await renew(admin, acmeDue)).statusCode).toBe(403);
    const theirs = await renew(bob, acmeDue);
    expect(theirs.statusCode).toBe(404);
    expect(theirs.json()).toEqual({ detail: 'Not found.' });
    expect((await renew(ada, bobDue)).statusCode).toBe(404);
    expect((await renew(ada, 999_999)).statusCode).toBe(404);
  });

  it('refuses a bad body, a consent not due and a withdrawn one, in the error shape', async () => {
    expect((await call(ada, 'POST', '/api/s/dvla-reconsent/', {})).json()).toEqual({
      consent: ['Required'],
    });
    expect((await renew(ada, 'abc')).statusCode).toBe(400);
    let res = await renew(ada, acmeFresh);
    expect([res.statusCode, res.json()]).toEqual([400, { consent: [CONSENT_MESSAGES.notDue] }]);
    res = await renew(ada, withdrawn);
    expect([res.statusCode, res.json()]).toEqual([
      400,
      { consent: [CONSENT_MESSAGES.alreadyWithdrawn] },
    ]);
  });

  it('renews a due mandate for 3 years, audited, the customer told; the calendar and the reminders move on', async () => {
    // the calendar lists the old date and reminds of it at 30 days
    expect((await calendar()).map((r) => r.reference)).toContain(`Consent ${acmeDue}`);
    expect(await runExpiryReminders(t.app.deps, acme)).toEqual({ reminders: 2 });

    const now = t.clock.now();
    const res = await renew(ada, acmeDue);
    expect(res.statusCode).toBe(201);
    const renewed = res.json();
    const ends = new Date(now);
    ends.setUTCFullYear(ends.getUTCFullYear() + 3);
    expect(renewed).toMatchObject({
      case: acmeCase,
      kind: 'driver-data',
      customer_name: 'Acme',
      given_at: now.toISOString(),
      expires_at: ends.toISOString(),
      status: 'active',
    });
    expect((await due(ada)).map((c) => c.id)).toEqual([otherExpired]);

    // the old row kept as renewed, the new one in force
    const rows = await t.owner((tx) =>
      tx.select().from(subjectConsents).where(eq(subjectConsents.caseId, acmeCase)),
    );
    expect(rows.map((r) => [r.id, r.renewedAt?.toISOString() ?? null])).toEqual([
      [acmeDue, now.toISOString()],
      [renewed.id, null],
    ]);

    // audited in Acme's log: the new consent, and the old one renewed by it
    const audits = await t.owner((tx) =>
      tx
        .select()
        .from(auditActions)
        .where(
          and(
            eq(auditActions.customerId, acme),
            eq(auditActions.contentType, 'portal.subjectconsent'),
          ),
        ),
    );
    expect(audits.map((a) => [a.verb, a.objectId, a.actorType])).toEqual(
      expect.arrayContaining([
        ['created', String(renewed.id), 'SubjectUser'],
        ['updated', String(acmeDue), 'SubjectUser'],
      ]),
    );
    const old = audits.find((a) => a.objectId === String(acmeDue));
    expect(old?.changes).toMatchObject({ renewed_by: renewed.id, case: acmeCase });

    // Acme's administrators are told (not Other's)
    await t.settle();
    const told = (await mailsTo('admin@acme.test')).filter((m) =>
      m.subject.includes('renewed their consent for driving licence checks'),
    );
    expect(told).toHaveLength(1);
    expect(told[0]?.text).toContain(`for case ${acmeCase}`);
    expect(told[0]?.text).toContain(`/cases/${acmeCase}`);
    expect(
      (await mailsTo('admin@other.test')).some((m) => m.subject.includes('renewed their')),
    ).toBe(false);

    // the calendar leaves the old date and shows the new one, 3 years on, at once; no reminder
    // of the old date again, at any step
    const renewedCalendar = await calendar();
    expect(renewedCalendar.map((r) => r.reference)).not.toContain(`Consent ${acmeDue}`);
    expect(renewedCalendar.map((r) => [r.reference, r.expires_on])).toContainEqual([
      `Consent ${renewed.id}`,
      renewed.expires_at.slice(0, 10),
    ]);
    t.clock.advance(14 * DAY); // 6 days before the old date: its 7-day step would be due
    // (Bob's ended meanwhile: out of the calendar too)
    expect(await runExpiryReminders(t.app.deps, acme)).toEqual({ reminders: 0 });
    const steps = await t.owner((tx) =>
      tx
        .select()
        .from(expiryReminders)
        .where(eq(expiryReminders.itemKey, String(acmeDue))),
    );
    expect(steps.map((s) => s.step)).toEqual([30]);
    t.clock.advance(3 * 365 * DAY - 40 * DAY); // the new mandate's last 30 days
    const later = await calendar();
    expect(later.map((r) => [r.reference, r.expires_on])).toContainEqual([
      `Consent ${renewed.id}`,
      renewed.expires_at.slice(0, 10),
    ]);
  });

  it('is idempotent: the renewed consent is gone (404), nothing is added or told twice', async () => {
    ada = await login(t.app, 'ada@renew.test'); // the clock moved past the session
    const [before] = await t.owner((tx) =>
      tx.select().from(subjectConsents).where(eq(subjectConsents.caseId, acmeCase)),
    );
    expect(before).toBeDefined();
    const again = await renew(ada, acmeDue);
    expect([again.statusCode, again.json()]).toEqual([404, { detail: 'Not found.' }]);
    const rows = await t.owner((tx) =>
      tx.select().from(subjectConsents).where(eq(subjectConsents.caseId, acmeCase)),
    );
    expect(rows).toHaveLength(2);
    await t.settle();
    const told = (await mailsTo('admin@acme.test')).filter((m) =>
      m.subject.includes('renewed their consent'),
    );
    expect(told).toHaveLength(1);
  });

  it("renews an expired mandate at another customer, in that customer's tenant", async () => {
    ada = await login(t.app, 'ada@renew.test');
    const res = await renew(ada, otherExpired);
    expect(res.statusCode).toBe(201);
    expect(res.json()).toMatchObject({ customer_name: 'Other', status: 'active' });
    await t.settle();
    expect(
      (await mailsTo('admin@other.test')).filter((m) => m.subject.includes('renewed their')),
    ).toHaveLength(1);
    const [row] = await t.owner((tx) =>
      tx.select().from(subjectConsents).where(eq(subjectConsents.id, res.json().id)),
    );
    expect(row?.customerId).toBe(other);
  });
});
