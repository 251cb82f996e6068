import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  buildTestApp,
  type Client,
  createCase,
  createCustomer,
  createProcess,
  createSubjectUser,
  login,
  ManualClock,
  type TestApp,
} from '../../../test/helpers.js';
import { auditActions } from '../../platform/tables/audit.table.js';
import { caseActivities } from '../activities/activities.table.js';
import { SUBMITTED_DETAIL } from '../case-data/case-access.js';
import { CONSENT_MESSAGES, consentExpiry, consentStatus } from './consents.service.js';
import { subjectConsents } from './consents.table.js';

/** The subject's consents: give, list, withdraw, expiry and the DVLA renewal (points 2, 4, 9). */
let t: TestApp;
let acme: number;
let other: number;
let caseId: number; // Ada's at Acme: driver data, update service, basic DBS, basic details
let otherCase: number; // Ada's at Other: driver data (the session's customer)
let submittedCase: number; // Ada's at Acme, submitted: driver data
let bobCase: number;
let acts: Record<string, number>;
let otherDriver: number;
let submittedDriver: number;
let ada: Client;
let bob: Client;

const NOW = new Date('2026-11-24T09:00:00Z');
const DAY = 86_400_000;

beforeAll(async () => {
  t = await buildTestApp({ clock: new ManualClock(NOW) });
  await t.owner(async (tx) => {
    acme = (await createCustomer(tx, { name: 'Acme' })).id;
    other = (await createCustomer(tx, { name: 'Other' })).id;
    const adaAcme = await createSubjectUser(tx, {
      customerId: acme,
      email: 'ada@example.test',
      createdAt: new Date('2026-01-01T00:00:00Z'),
    });
    const adaOther = await createSubjectUser(tx, {
      customerId: other,
      email: 'ada@example.test',
      createdAt: new Date('2026-02-01T00:00:00Z'),
    });
    const bobRecord = await createSubjectUser(tx, { customerId: acme, email: 'bob@example.test' });
    const p = await createProcess(tx, {
      customerId: acme,
      requirements: ['driver-data', 'dbs-update', 'dbs-basic', 'basic-details'],
    });
    caseId = (await createCase(tx, { customerId: acme, processId: p.id, subjectId: adaAcme.id }))
      .id;
    const rows = await tx
      .select({ id: caseActivities.id, position: caseActivities.position })
      .from(caseActivities)
      .where(eq(caseActivities.caseId, caseId));
    const codes = ['driver-data', 'dbs-update', 'dbs-basic', 'basic-details'];
    acts = Object.fromEntries(rows.map((r) => [codes[r.position], r.id]));
    const op = await createProcess(tx, { customerId: other, requirements: ['driver-data'] });
    otherCase = (
      await createCase(tx, { customerId: other, processId: op.id, subjectId: adaOther.id })
    ).id;
    const sp = await createProcess(tx, { customerId: acme, requirements: ['driver-data'] });
    submittedCase = (
      await createCase(tx, {
        customerId: acme,
        processId: sp.id,
        subjectId: adaAcme.id,
        activityStates: ['ca-in-progress'],
      })
    ).id;
    const activityOf = async (id: number) =>
      (await tx.select().from(caseActivities).where(eq(caseActivities.caseId, id)))[0]?.id ?? 0;
    otherDriver = await activityOf(otherCase);
    submittedDriver = await activityOf(submittedCase);
    bobCase = (
      await createCase(tx, { customerId: acme, processId: sp.id, subjectId: bobRecord.id })
    ).id;
  });
  ada = await login(t.app, 'ada@example.test');
  bob = await login(t.app, 'bob@example.test');
});
afterAll(() => t.close());

const call = (c: Client, method: 'GET' | 'POST', url: string, payload?: object) =>
  t.app.inject({ method, url, headers: c.headers, ...(payload ? { payload } : {}) });
const give = (c: Client, body: object) => call(c, 'POST', '/api/s/consents/', body);

/** A consent given `daysAgo` days before now, straight into the table. */
async function consentGiven(
  daysAgo: number,
  input: {
    customerId: number;
    caseId: number;
    caseActivityId: number;
    kind: 'driver-data' | 'dbs-update';
  },
): Promise<number> {
  const givenAt = new Date(NOW.getTime() - daysAgo * DAY);
  const [row] = await t.owner((tx) =>
    tx
      .insert(subjectConsents)
      .values({ ...input, givenAt, expiresAt: consentExpiry(input.kind, givenAt) })
      .returning(),
  );
  return row?.id ?? 0;
}

describe('consent expiry and status', () => {
  it('gives a DVLA mandate 3 years and the others no expiry', () => {
    expect(consentExpiry('driver-data', new Date('2024-02-29T10:00:00Z'))?.toISOString()).toBe(
      '2027-03-01T10:00:00.000Z',
    );
    expect(consentExpiry('dbs-update', NOW)).toBeNull();
    expect(consentExpiry('dbs-application', NOW)).toBeNull();
  });

  it('is active, expiring within 90 days of the expiry, expired from it, or withdrawn', () => {
    const at = (days: number) => new Date(NOW.getTime() + days * DAY);
    expect(consentStatus({ withdrawnAt: null, expiresAt: null }, NOW)).toBe('active');
    expect(consentStatus({ withdrawnAt: null, expiresAt: at(91) }, NOW)).toBe('active');
    expect(consentStatus({ withdrawnAt: null, expiresAt: at(90) }, NOW)).toBe('expiring');
    expect(consentStatus({ withdrawnAt: null, expiresAt: at(0.001) }, NOW)).toBe('expiring');
    expect(consentStatus({ withdrawnAt: null, expiresAt: NOW }, NOW)).toBe('expired');
    expect(consentStatus({ withdrawnAt: NOW, expiresAt: at(500) }, NOW)).toBe('withdrawn');
  });
});

describe('POST and GET /api/s/consents/', () => {
  it("records a consent for a check of the subject's case, with its expiry, audited", async () => {
    const res = await give(ada, {
      case: caseId,
      case_activity: acts['driver-data'],
      kind: 'driver-data',
    });
    expect(res.statusCode).toBe(201);
    expect(res.json()).toEqual({
      id: expect.any(Number),
      case: caseId,
      case_activity: acts['driver-data'],
      activity_type_name: 'Driver data',
      customer_name: 'Acme',
      kind: 'driver-data',
      kind_display: 'Driving licence and driver data checks (DVLA mandate)',
      given_at: NOW.toISOString(),
      expires_at: '2029-11-24T09:00:00.000Z',
      withdrawn_at: null,
      status: 'active',
    });
    const audits = await t.owner((tx) =>
      tx
        .select()
        .from(auditActions)
        .where(
          and(
            eq(auditActions.contentType, 'portal.subjectconsent'),
            eq(auditActions.verb, 'created'),
          ),
        ),
    );
    expect(audits).toHaveLength(1);
    expect(audits[0]).toMatchObject({ customerId: acme, actorType: 'SubjectUser' });
    const db = await give(ada, {
      case: caseId,
      case_activity: acts['dbs-basic'],
      kind: 'dbs-application',
    });
    expect(db.statusCode).toBe(201);
    expect(db.json()).toMatchObject({
      kind: 'dbs-application',
      expires_at: null,
      status: 'active',
    });
  });

  it("takes consents at a second customer holding the person (not the session's only)", async () => {
    const res = await give(ada, {
      case: otherCase,
      case_activity: otherDriver,
      kind: 'driver-data',
    });
    expect(res.statusCode).toBe(201);
    expect(res.json()).toMatchObject({ customer_name: 'Other' });
  });

  it('refuses a second live consent, the wrong kind and a check of another case (400)', async () => {
    for (const [body, field, message] of [
      [
        { case: caseId, case_activity: acts['driver-data'], kind: 'driver-data' },
        'kind',
        CONSENT_MESSAGES.alreadyGiven,
      ],
      [
        { case: caseId, case_activity: acts['dbs-update'], kind: 'driver-data' },
        'kind',
        CONSENT_MESSAGES.wrongKind,
      ],
      [
        { case: caseId, case_activity: acts['basic-details'], kind: 'dbs-application' },
        'kind',
        CONSENT_MESSAGES.wrongKind,
      ],
      [
        { case: caseId, case_activity: otherDriver, kind: 'driver-data' },
        'case_activity',
        CONSENT_MESSAGES.notOfCase,
      ],
    ] as const) {
      const res = await give(ada, body);
      expect(res.statusCode).toBe(400);
      expect(res.json()).toEqual({ [field]: [message] });
    }
  });

  it('answers bad bodies with field errors, never a 500', async () => {
    const res = await give(ada, { case: 'abc', kind: 'everything' });
    expect(res.statusCode).toBe(400);
    expect(Object.keys(res.json()).sort()).toEqual(['case', 'case_activity', 'kind']);
    const big = await give(ada, { case: 2 ** 40, case_activity: -1, kind: 'driver-data' });
    expect(big.statusCode).toBe(400);
    expect(Object.keys(big.json()).sort()).toEqual(['case', 'case_activity']);
  });

  it("is 404 for another person's case and 403 once the case is submitted", async () => {
    const res = await give(bob, {
      case: caseId,
      case_activity: acts['dbs-update'],
      kind: 'dbs-update',
    });
    expect(res.statusCode).toBe(404);
    const bobs = await give(ada, {
      case: bobCase,
      case_activity: submittedDriver,
      kind: 'driver-data',
    });
    expect(bobs.statusCode).toBe(404);
    const sub = await give(ada, {
      case: submittedCase,
      case_activity: submittedDriver,
      kind: 'driver-data',
    });
    expect(sub.statusCode).toBe(403);
    expect(sub.json()).toEqual({ detail: SUBMITTED_DETAIL });
  });

  it("lists the person's consents at every customer, and only theirs", async () => {
    const res = await call(ada, 'GET', '/api/s/consents/');
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.count).toBe(3);
    expect(
      body.results.map((c: { customer_name: string; kind: string }) => [c.customer_name, c.kind]),
    ).toEqual([
      ['Acme', 'driver-data'],
      ['Acme', 'dbs-application'],
      ['Other', 'driver-data'],
    ]);
    expect((await call(bob, 'GET', '/api/s/consents/')).json()).toEqual({
      count: 0,
      next: null,
      previous: null,
      results: [],
    });
  });
});

describe('POST /api/s/consents/{id}/withdraw/', () => {
  it("withdraws, and the activity goes to the customer's attention", async () => {
    const list = (await call(ada, 'GET', '/api/s/consents/')).json().results;
    const driver = list.find(
      (c: { case: number; kind: string }) => c.case === caseId && c.kind === 'driver-data',
    );
    // another person cannot touch it
    expect((await call(bob, 'POST', `/api/s/consents/${driver.id}/withdraw/`)).statusCode).toBe(
      404,
    );
    const res = await call(ada, 'POST', `/api/s/consents/${driver.id}/withdraw/`);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      id: driver.id,
      status: 'withdrawn',
      withdrawn_at: NOW.toISOString(),
    });
    const [a] = await t.owner((tx) =>
      tx
        .select()
        .from(caseActivities)
        .where(eq(caseActivities.id, acts['driver-data'] ?? 0)),
    );
    expect(a?.state).toBe('ca-pending-activity-decision');
    const again = await call(ada, 'POST', `/api/s/consents/${driver.id}/withdraw/`);
    expect(again.statusCode).toBe(400);
    expect(again.json()).toEqual({ non_field_errors: [CONSENT_MESSAGES.alreadyWithdrawn] });
  });

  it('may withdraw after submission', async () => {
    const id = await consentGiven(10, {
      customerId: acme,
      caseId: submittedCase,
      caseActivityId: submittedDriver,
      kind: 'driver-data',
    });
    const res = await call(ada, 'POST', `/api/s/consents/${id}/withdraw/`);
    expect(res.statusCode).toBe(200);
    const [a] = await t.owner((tx) =>
      tx.select().from(caseActivities).where(eq(caseActivities.id, submittedDriver)),
    );
    expect(a?.state).toBe('ca-pending-activity-decision');
  });

  it('is 404 for an unknown or malformed id', async () => {
    expect((await call(ada, 'POST', '/api/s/consents/99999/withdraw/')).statusCode).toBe(404);
    expect((await call(ada, 'POST', '/api/s/consents/x/withdraw/')).statusCode).toBe(404);
  });
});

describe('POST /api/s/dvla-reconsent/', () => {
  const renew = (c: Client, consent: unknown) =>
    call(c, 'POST', '/api/s/dvla-reconsent/', { consent });

  it('refuses a consent that is not due, or not a DVLA one (400)', async () => {
    const fresh = await consentGiven(30, {
      customerId: other,
      caseId: otherCase,
      caseActivityId: otherDriver,
      kind: 'driver-data',
    });
    let res = await renew(ada, fresh);
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ consent: [CONSENT_MESSAGES.notDue] });
    const update = await consentGiven(2000, {
      customerId: acme,
      caseId,
      caseActivityId: acts['dbs-update'] ?? 0,
      kind: 'dbs-update',
    });
    res = await renew(ada, update);
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ consent: [CONSENT_MESSAGES.notRenewable] });
    expect((await renew(ada, 'abc')).statusCode).toBe(400);
    expect((await call(ada, 'POST', '/api/s/dvla-reconsent/', {})).json()).toEqual({
      consent: ['Required'],
    });
  });

  it('renews a due (expiring) consent for 3 more years and notes it on the profile', async () => {
    const due = await consentGiven(3 * 365 - 30, {
      customerId: other,
      caseId: otherCase,
      caseActivityId: otherDriver,
      kind: 'driver-data',
    });
    const before = (await call(ada, 'GET', '/api/s/consents/')).json().results;
    expect(before.find((c: { id: number }) => c.id === due).status).toBe('expiring');
    // due for renewal: listed for the prompt (the fresh one and the other kinds are not)
    const prompt = (await call(ada, 'GET', '/api/s/dvla-reconsent/')).json();
    expect(prompt.results.map((c: { id: number; status: string }) => [c.id, c.status])).toEqual([
      [due, 'expiring'],
    ]);
    expect((await call(bob, 'GET', '/api/s/dvla-reconsent/')).json().count).toBe(0);
    expect((await renew(bob, due)).statusCode).toBe(404);
    const res = await renew(ada, due);
    expect(res.statusCode).toBe(201);
    expect((await call(ada, 'GET', '/api/s/dvla-reconsent/')).json().count).toBe(0);
    const renewed = res.json();
    expect(renewed).toMatchObject({
      case: otherCase,
      kind: 'driver-data',
      given_at: NOW.toISOString(),
      expires_at: '2029-11-24T09:00:00.000Z',
      status: 'active',
    });
    const after = (await call(ada, 'GET', '/api/s/consents/')).json().results;
    // the renewed one gives way to the new one
    expect(after.some((c: { id: number }) => c.id === due)).toBe(false);
    expect(after.some((c: { id: number }) => c.id === renewed.id)).toBe(true);
    const profile = (await call(ada, 'GET', '/api/user/')).json();
    expect(profile.dvla_reconsents).toEqual([
      {
        consent: renewed.id,
        replaces: due,
        case: otherCase,
        renewed_at: NOW.toISOString(),
        expires_at: '2029-11-24T09:00:00.000Z',
      },
    ]);
    // a renewed consent is gone: renewing it again is 404
    expect((await renew(ada, due)).statusCode).toBe(404);
  });

  it('renews an expired consent, also on a finished case', async () => {
    const expired = await consentGiven(3 * 365 + 10, {
      customerId: acme,
      caseId: submittedCase,
      caseActivityId: submittedDriver,
      kind: 'driver-data',
    });
    const list = (await call(ada, 'GET', '/api/s/consents/')).json().results;
    expect(list.find((c: { id: number }) => c.id === expired).status).toBe('expired');
    await t.owner((tx) =>
      tx.execute(sql`update cases set state = 'complete' where id = ${submittedCase}`),
    );
    const res = await renew(ada, expired);
    expect(res.statusCode).toBe(201);
    expect(res.json()).toMatchObject({ status: 'active', case: submittedCase });
  });
});
