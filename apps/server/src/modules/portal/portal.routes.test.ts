// @postgres: whole-app smoke on node-postgres as a subject: the portal's sections and submission

import { SEND_BACK_MESSAGES, SUBMIT_WITHOUT_CONSENT } from '@kestrel/domain';
import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import {
  buildTestApp,
  type Client,
  createAdminAndViewer,
  createCase,
  createCustomer,
  createProcess,
  createSubjectUser,
  login,
  ManualClock,
  type TestApp,
} from '../../../test/helpers.js';
import { giveConsents as giveConsentsOf } from '../../../test/kinds.js';
import { auditActions } from '../../platform/tables/audit.table.js';
import { caseActivities } from '../activities/activities.table.js';
import { SUBMITTED_DETAIL } from '../case-data/case-access.js';
import { cases } from '../cases/cases.table.js';
import { REVIEW_BY_SUBMITTING, SUBMIT_INCOMPLETE } from './portal.service.js';

// The check engine's entry point is the engine's; here it only records what the portal hands it.
const submitted = vi.hoisted(() => [] as { caseId: number; ids: readonly number[] }[]);
vi.mock(import('../checks/hooks.js'), async (original) => ({
  ...(await original()),
  activitiesSubmitted: async (_ctx: unknown, caseId: number, ids: readonly number[]) => {
    submitted.push({ caseId, ids });
  },
}));

/** The subject portal's API: scope across customers, payload, progress and submission. */
let t: TestApp;
let acme: number;
let other: number;
let acmeCase: number; // Ada's at Acme (not her session's customer): basic, address, DBS, licence
let otherCase: number; // Ada's at Other (her session's customer): basic details, update service
let finishedCase: number; // Ada's at Acme, complete
let bobCase: number; // Bob's at Acme
let ada: Client;
let bob: Client;
let admin: Client;

const NOW = '2026-11-24T09:00:00Z';

beforeAll(async () => {
  t = await buildTestApp({ clock: new ManualClock(NOW) });
  await t.owner(async (tx) => {
    acme = (await createCustomer(tx, { name: 'Acme' })).id;
    other = (await createCustomer(tx, { name: 'Other' })).id;
    await createAdminAndViewer(tx, acme);
    const adaAcme = await createSubjectUser(tx, {
      customerId: acme,
      email: 'ada@example.test',
      firstName: 'Ada',
      lastName: 'Byron',
      dob: '1985-12-10',
      createdAt: new Date('2026-01-01T00:00:00Z'),
    });
    // the same person, taken on later by a second customer (one login, two records)
    const adaOther = await createSubjectUser(tx, {
      customerId: other,
      email: 'ada@example.test',
      firstName: 'Ada',
      lastName: 'Byron',
      createdAt: new Date('2026-06-01T00:00:00Z'),
    });
    const bobRecord = await createSubjectUser(tx, { customerId: acme, email: 'bob@example.test' });
    const full = await createProcess(tx, {
      customerId: acme,
      requirements: ['basic-details', 'address-history', 'dbs-basic', 'licence-check'],
    });
    acmeCase = (
      await createCase(tx, {
        customerId: acme,
        processId: full.id,
        subjectId: adaAcme.id,
        activityStates: [
          'ca-awaiting-subject',
          'ca-awaiting-subject',
          'ca-awaiting-subject',
          'ca-awaiting-ops',
        ],
        createdAt: new Date('2026-02-01T00:00:00Z'),
      })
    ).id;
    const update = await createProcess(tx, {
      customerId: other,
      requirements: ['basic-details', 'dbs-update'],
    });
    otherCase = (
      await createCase(tx, {
        customerId: other,
        processId: update.id,
        subjectId: adaOther.id,
        createdAt: new Date('2026-07-01T00:00:00Z'),
      })
    ).id;
    finishedCase = (
      await createCase(tx, {
        customerId: acme,
        subjectId: adaAcme.id,
        activityStates: ['ca-complete'],
        state: 'complete',
        createdAt: new Date('2026-01-05T00:00:00Z'),
      })
    ).id;
    bobCase = (await createCase(tx, { customerId: acme, subjectId: bobRecord.id })).id;
  });
  ada = await login(t.app, 'ada@example.test');
  bob = await login(t.app, 'bob@example.test');
  admin = await login(t.app, 'admin@acme.test');
});
afterAll(() => t.close());

const call = (
  c: Client,
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE',
  url: string,
  payload?: object,
) => t.app.inject({ method, url, headers: c.headers, ...(payload ? { payload } : {}) });

const portal = (id: number) => `/api/s/case-portal/${id}/`;
const progress = (c: Client, id: number, value: unknown) =>
  call(c, 'PATCH', portal(id), { portal_last_completed_section: value });

const giveConsents = (c: Client, id: number) => giveConsentsOf(t.app, c, id);

describe('GET /api/s/case-portal/{case}/', () => {
  it("answers the subject's own case at each customer that holds the person", async () => {
    for (const id of [acmeCase, otherCase]) {
      const res = await call(ada, 'GET', portal(id));
      expect(res.statusCode).toBe(200);
      expect(res.json().portal.id).toBe(id);
    }
  });

  it("is 404 for another person's case, a finished case, an unknown id and a bad id", async () => {
    for (const [c, id] of [
      [ada, bobCase],
      [bob, acmeCase],
      [bob, otherCase],
      [ada, finishedCase],
      [ada, 99_999],
    ] as const) {
      expect((await call(c, 'GET', portal(id))).statusCode).toBe(404);
    }
    expect((await call(ada, 'GET', '/api/s/case-portal/abc/')).statusCode).toBe(404);
  });

  it('refuses product users and anonymous callers', async () => {
    expect((await call(admin, 'GET', portal(acmeCase))).statusCode).toBe(403);
    expect((await t.app.inject({ method: 'GET', url: portal(acmeCase) })).statusCode).toBe(401);
  });

  it('gives the payload of point 3', async () => {
    const body = (await call(ada, 'GET', portal(acmeCase))).json();
    expect(body.portal).toMatchObject({
      id: acmeCase,
      customer: { id: acme, name: 'Acme' },
      state: 'awaiting-subject',
      // a driving licence check needs the DVLA mandate: the driver-data section
      required_consents: ['driver-data'],
      portal_last_completed_section: null,
      sections: [
        'welcome',
        'basic-details',
        'address-history',
        'dbs-basic',
        'driver-data',
        'review',
        'done',
      ],
      progress: { completed: 0, total: 7, percent: 0, next: 'welcome' },
      submitted: false,
    });
    expect(
      body.portal.case_activities.map((a: { activity_type: unknown }) => a.activity_type),
    ).toEqual([
      { code: 'basic-details', code_display: 'Basic details' },
      { code: 'address-history', code_display: 'Address history' },
      { code: 'dbs-basic', code_display: 'Basic DBS check' },
      { code: 'licence-check', code_display: 'Driving licence check' },
    ]);
    expect(body.portal.case_activities[0]).toMatchObject({
      state: 'ca-awaiting-subject',
      state_display: 'Waiting for you',
      config: {},
    });
    // basic details not saved yet: prefilled from the customer's record of the person
    expect(body.basic_details).toMatchObject({
      case: acmeCase,
      forename: 'Ada',
      surname: 'Byron',
      email: 'ada@example.test',
      dob: '1985-12-10',
    });
    expect(body.documentation).toEqual({ passport: null, driving_licence: null });
    expect(body.online_idv).toEqual({
      session: null,
      ibv_verified: false,
      ibv_session: null,
      manual_idv_approved: false,
      id_profile: null,
      verified: false,
    });
    expect(body.subscriptions).toEqual([]);
  });

  it('adds the update service section for a case that has one', async () => {
    const body = (await call(ada, 'GET', portal(otherCase))).json();
    expect(body.portal.sections).toEqual([
      'welcome',
      'basic-details',
      'dbs-update',
      'review',
      'done',
    ]);
    expect(body.portal.required_consents).toEqual(['dbs-update']);
  });
});

describe('PATCH /api/s/case-portal/{case}/ (progress)', () => {
  it('records the last completed section; a value with a slash counts one step earlier', async () => {
    let res = await progress(ada, acmeCase, 'basic-details');
    expect(res.statusCode).toBe(200);
    expect(res.json().portal).toMatchObject({
      portal_last_completed_section: 'basic-details',
      progress: { completed: 2, total: 7, percent: 29, next: 'address-history' },
    });
    res = await progress(ada, acmeCase, 'address-history/2');
    expect(res.json().portal).toMatchObject({
      portal_last_completed_section: 'address-history/2',
      progress: { completed: 2, next: 'address-history' },
    });
    res = await progress(ada, acmeCase, 'address-history');
    expect(res.json().portal.progress).toMatchObject({ completed: 3, next: 'dbs-basic' });
    const [row] = await t.owner((tx) => tx.select().from(cases).where(eq(cases.id, acmeCase)));
    expect(row?.portalLastCompletedSection).toBe('address-history');
  });

  it('never moves back: going back to an earlier section keeps the furthest point', async () => {
    const res = await progress(ada, acmeCase, 'welcome');
    expect(res.statusCode).toBe(200);
    expect(res.json().portal).toMatchObject({
      portal_last_completed_section: 'address-history',
      progress: { completed: 3 },
    });
  });

  it("audits each move in the case customer's trail", async () => {
    const rows = await t.owner((tx) =>
      tx
        .select()
        .from(auditActions)
        .where(
          and(eq(auditActions.verb, 'progressed'), eq(auditActions.objectId, String(acmeCase))),
        ),
    );
    expect(rows.map((r) => r.changes)).toEqual([
      { portal_last_completed_section: [null, 'basic-details'] },
      { portal_last_completed_section: ['basic-details', 'address-history/2'] },
      { portal_last_completed_section: ['address-history/2', 'address-history'] },
    ]);
    expect(rows.every((r) => r.customerId === acme && r.actorType === 'SubjectUser')).toBe(true);
  });

  it('refuses an unknown section, one the case does not have, and bad bodies (400, never 500)', async () => {
    for (const [value, message] of [
      ['nowhere', 'Unknown portal section'],
      ['rtw', 'Not a section of this case.'],
      ['done', 'Not a section of this case.'],
      ['review', REVIEW_BY_SUBMITTING],
      [12, expect.any(String)],
      [null, expect.any(String)],
    ] as const) {
      const res = await progress(ada, acmeCase, value);
      expect(res.statusCode).toBe(400);
      expect(res.json()).toEqual({ portal_last_completed_section: [message] });
    }
    const res = await call(ada, 'PATCH', portal(acmeCase), {});
    expect(res.statusCode).toBe(400);
    expect(Object.keys(res.json())).toEqual(['portal_last_completed_section']);
  });

  it("is 404 for another person's case", async () => {
    expect((await progress(bob, acmeCase, 'welcome')).statusCode).toBe(404);
    expect((await progress(ada, bobCase, 'welcome')).statusCode).toBe(404);
  });
});

describe('POST /api/s/case-portal/{case}/submit/', () => {
  it('is refused until every section before Review is done', async () => {
    const res = await call(ada, 'POST', `${portal(acmeCase)}submit/`);
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ non_field_errors: [SUBMIT_INCOMPLETE] });
    expect(submitted).toEqual([]);
  });

  it('is refused without the consent a check asks for, even with the sections skipped past (400, nothing moves)', async () => {
    const states = async () =>
      (
        await t.owner((tx) =>
          tx
            .select({ state: caseActivities.state })
            .from(caseActivities)
            .where(eq(caseActivities.caseId, acmeCase))
            .orderBy(caseActivities.position),
        )
      ).map((a) => a.state);
    const before = await states();
    // past the Basic DBS check's section (its declaration) without giving its consent
    expect((await progress(ada, acmeCase, 'driver-data')).statusCode).toBe(200);
    const res = await call(ada, 'POST', `${portal(acmeCase)}submit/`);
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ non_field_errors: [SUBMIT_WITHOUT_CONSENT] });
    expect(await states()).toEqual(before);
    expect((await call(ada, 'GET', portal(acmeCase))).json().portal.submitted).toBe(false);
    const audits = await t.owner((tx) =>
      tx
        .select()
        .from(auditActions)
        .where(
          and(eq(auditActions.verb, 'submitted'), eq(auditActions.objectId, String(acmeCase))),
        ),
    );
    expect(audits).toEqual([]);
    expect(submitted).toEqual([]);
  });

  it('moves the waiting activities on in one audited step and tells the check engine', async () => {
    expect((await progress(ada, acmeCase, 'driver-data')).statusCode).toBe(200);
    await giveConsents(ada, acmeCase);
    const res = await call(ada, 'POST', `${portal(acmeCase)}submit/`);
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.portal).toMatchObject({
      state: 'in-progress',
      submitted: true,
      portal_last_completed_section: 'review',
      progress: { completed: 7, total: 7, percent: 100, next: 'done' },
    });
    const acts = await t.owner((tx) =>
      tx
        .select()
        .from(caseActivities)
        .where(eq(caseActivities.caseId, acmeCase))
        .orderBy(caseActivities.position),
    );
    // basic details and address history end on submission (nothing to check, issue 27); the
    // check goes on; the licence check (awaiting operations) was not the subject's to move
    expect(acts.map((a) => a.state)).toEqual([
      'ca-complete',
      'ca-complete',
      'ca-in-progress',
      'ca-awaiting-ops',
    ]);
    expect(submitted).toEqual([{ caseId: acmeCase, ids: acts.slice(0, 3).map((a) => a.id) }]);
    const audits = await t.owner((tx) =>
      tx
        .select()
        .from(auditActions)
        .where(
          and(eq(auditActions.verb, 'submitted'), eq(auditActions.objectId, String(acmeCase))),
        ),
    );
    expect(audits).toHaveLength(1);
    expect(audits[0]).toMatchObject({ customerId: acme, contentType: 'cases.case' });
  });

  it('leaves the portal read-only: progress and a second submit are refused (403)', async () => {
    for (const res of [
      await progress(ada, acmeCase, 'driver-data'),
      await call(ada, 'POST', `${portal(acmeCase)}submit/`),
    ]) {
      expect(res.statusCode).toBe(403);
      expect(res.json()).toEqual({ detail: SUBMITTED_DETAIL });
    }
    // still readable
    expect((await call(ada, 'GET', portal(acmeCase))).json().portal.submitted).toBe(true);
  });

  it("refuses the subject's case data writes once submitted", async () => {
    // the case of the session's customer (the case-data routes act for it)
    expect((await progress(ada, otherCase, 'dbs-update')).statusCode).toBe(200);
    await giveConsents(ada, otherCase);
    expect((await call(ada, 'POST', `${portal(otherCase)}submit/`)).statusCode).toBe(200);
    const put = await call(ada, 'PATCH', `/api/s/case-basic-details/${otherCase}/`, {
      forename: 'Ada',
    });
    expect(put.statusCode).toBe(403);
    expect(put.json()).toEqual({ detail: SUBMITTED_DETAIL });
    const address = await call(ada, 'POST', '/api/s/case-addresses/', {
      case: otherCase,
      country: 'GBR',
      line_one: '1 High Street',
      town: 'Leeds',
      postcode: 'LS1 1AA',
      from_date: '2020-01-01',
    });
    expect(address.json()).toEqual({ detail: SUBMITTED_DETAIL });
    expect(address.statusCode).toBe(403);
  });

  it('stays submitted when a check then waits for the person again (a top-up): the next step is paying it', async () => {
    // otherCase was submitted above; its update service check now awaits a top-up (as the check
    // engine leaves it when a provider demands one), so the case waits for the subject again
    await t.owner(async (tx) => {
      await tx
        .update(caseActivities)
        .set({
          state: 'ca-awaiting-subject',
          processingData: {
            top_up: {
              amount_pence: 1500,
              reason: 'Top-up',
              status: 'awaiting',
              payment_intent: 'pit_portal_test',
            },
          },
        })
        .where(eq(caseActivities.caseId, otherCase));
      await tx.update(cases).set({ state: 'awaiting-subject' }).where(eq(cases.id, otherCase));
    });
    const c = (await call(ada, 'GET', `/api/s/cases/${otherCase}/`)).json();
    expect(c).toMatchObject({
      state: 'awaiting-subject',
      submitted: true,
      needs: ['Pay the top-up'],
      next_step: { label: 'Pay the top-up', payment_intent: 'pit_portal_test' },
    });
    // the portal does not reopen: its data cannot change under the application already sent
    expect((await call(ada, 'GET', portal(otherCase))).json().portal.submitted).toBe(true);
    const put = await call(ada, 'PATCH', `/api/s/case-basic-details/${otherCase}/`, {
      forename: 'Eve',
    });
    expect(put.statusCode).toBe(403);
    expect((await call(ada, 'POST', `${portal(otherCase)}submit/`)).statusCode).toBe(403);
    // a check no longer waiting (cancelled) asks for no payment
    await t.owner((tx) =>
      tx
        .update(caseActivities)
        .set({ state: 'ca-cancelled' })
        .where(eq(caseActivities.caseId, otherCase)),
    );
    const cancelled = (await call(ada, 'GET', `/api/s/cases/${otherCase}/`)).json();
    expect(cancelled).toMatchObject({ submitted: true, needs: [], next_step: null });
  });

  it("is 404 for another person's case", async () => {
    expect((await call(bob, 'POST', `${portal(acmeCase)}submit/`)).statusCode).toBe(404);
  });
});

describe('GET /api/s/cases/ and /api/s/cases/{id}/', () => {
  it("lists the person's cases at every customer, and only theirs", async () => {
    const res = await call(ada, 'GET', '/api/s/cases/');
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.count).toBe(3);
    expect(body.results.map((c: { id: number }) => c.id)).toEqual([
      finishedCase,
      acmeCase,
      otherCase,
    ]);
    expect(body.results.map((c: { customer: { name: string } }) => c.customer.name)).toEqual([
      'Acme',
      'Acme',
      'Other',
    ]);
    const bobs = (await call(bob, 'GET', '/api/s/cases/')).json();
    expect(bobs.results.map((c: { id: number }) => c.id)).toEqual([bobCase]);
  });

  it('pages like the other lists (page, page_size), and refuses a bad page with 400', async () => {
    const second = await call(ada, 'GET', '/api/s/cases/?page_size=2&page=2');
    expect(second.statusCode).toBe(200);
    const body = second.json();
    expect(body.count).toBe(3);
    expect(body.results.map((c: { id: number }) => c.id)).toEqual([otherCase]);
    expect(body.next).toBeNull();
    expect(body.previous).toMatch(/\/api\/s\/cases\/\?page_size=2&page=1$/);
    const first = (await call(ada, 'GET', '/api/s/cases/?page_size=2')).json();
    expect(first.results.map((c: { id: number }) => c.id)).toEqual([finishedCase, acmeCase]);
    expect(first.next).toMatch(/page=2$/);
    expect((await call(ada, 'GET', '/api/s/cases/?page=0')).statusCode).toBe(400);
  });

  it('says what a case still needs and its one next step, in plain words', async () => {
    const res = await call(bob, 'GET', `/api/s/cases/${bobCase}/`);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      id: bobCase,
      state: 'awaiting-subject',
      state_display: 'Waiting for you',
      submitted: false,
      // the steps counted are the steps listed (Welcome and Done are no step to take)
      progress: { completed: 0, total: 4, percent: 0, next: 'welcome' },
      needs: ['Basic details', 'Address history', 'Basic DBS check', 'Review & Submit'],
      next_step: { label: 'Start', section: 'welcome' },
    });
    expect(res.json().case_activities[0]).toEqual({
      id: expect.any(Number),
      activity_type: { code: 'basic-details', code_display: 'Basic details' },
      state: 'ca-awaiting-subject',
      state_display: 'Waiting for you',
    });
    await progress(bob, bobCase, 'basic-details');
    const after = (await call(bob, 'GET', `/api/s/cases/${bobCase}/`)).json();
    expect(after.needs).toEqual(['Address history', 'Basic DBS check', 'Review & Submit']);
    expect(after.progress).toEqual({
      completed: 1,
      total: 4,
      percent: 25,
      next: 'address-history',
    });
    expect(after.next_step).toEqual({
      label: 'Continue: Address history',
      section: 'address-history',
      payment_intent: null,
    });
  });

  it('shows a submitted or finished case with nothing left to do', async () => {
    const sub = (await call(ada, 'GET', `/api/s/cases/${acmeCase}/`)).json();
    expect(sub).toMatchObject({
      state_display: 'Being checked',
      submitted: true,
      needs: [],
      next_step: null,
      progress: { completed: 5, total: 5, percent: 100, next: 'done' },
    });
    const done = (await call(ada, 'GET', `/api/s/cases/${finishedCase}/`)).json();
    expect(done).toMatchObject({ state: 'complete', state_display: 'Complete', next_step: null });
  });

  it("is 404 for another person's case and a bad id", async () => {
    expect((await call(bob, 'GET', `/api/s/cases/${acmeCase}/`)).statusCode).toBe(404);
    expect((await call(ada, 'GET', `/api/s/cases/${bobCase}/`)).statusCode).toBe(404);
    expect((await call(ada, 'GET', '/api/s/cases/1e3/')).statusCode).toBe(404);
  });

  it('leaves the country map where it is', async () => {
    expect((await call(ada, 'GET', '/api/s/cases/country-map/')).statusCode).toBe(200);
  });
});

describe('subjectCaseActor and subjectRecordActor (for the case-data routes)', () => {
  it("acts for the customer of the subject's own case, else leaves the actor as it is", async () => {
    const { subjectCaseActor, subjectRecordActor } = await import('./subject-scope.js');
    const adaLogin = await t.owner(async (tx) => {
      const [row] = await tx.execute<{ user_id: number }>(
        sql`select user_id from subjects where email = 'ada@example.test' limit 1`,
      );
      return Number(row?.user_id);
    });
    const actor = {
      type: 'SubjectUser' as const,
      id: adaLogin,
      name: 'Ada',
      customerId: other, // her session's customer
      isOps: false,
      permissions: new Set<never>(),
      ip: null,
      requestId: null,
    };
    const deps = t.app.deps;
    expect((await subjectCaseActor(deps, actor, acmeCase)).customerId).toBe(acme);
    expect((await subjectCaseActor(deps, actor, finishedCase)).customerId).toBe(acme);
    expect((await subjectCaseActor(deps, actor, otherCase)).customerId).toBe(other);
    // not hers: unchanged, and RLS keeps answering 404
    expect((await subjectCaseActor(deps, actor, bobCase)).customerId).toBe(other);
    expect((await subjectCaseActor(deps, actor, 99_999)).customerId).toBe(other);
    const address = await t.owner(async (tx) => {
      const [row] = await tx.execute<{ id: number }>(sql`
        insert into case_addresses (customer_id, case_id, country, line_one, town, postcode, from_date, current, source)
        values (${acme}, ${acmeCase}, 'GBR', '1 High Street', 'Leeds', 'LS1 1AA', '2020-01-01', true, 'manual')
        returning id`);
      return Number(row?.id);
    });
    expect((await subjectRecordActor(deps, actor, 'case_addresses', address)).customerId).toBe(
      acme,
    );
    expect((await subjectRecordActor(deps, actor, 'case_addresses', 99_999)).customerId).toBe(
      other,
    );
    const bobActor = { ...actor, id: adaLogin + 1000 };
    expect((await subjectCaseActor(deps, bobActor, acmeCase)).customerId).toBe(other);
  });
});

describe('staff sending a submitted case back to its subject', () => {
  // The decision (issue 27; as DBS e-bulk lets the countersignatory or ID checker return an
  // application for correction before it is sent): staff may send an activity back to its subject
  // only while it waits for staff and nothing of it has gone to a provider (the domain's
  // sendBackRefusal); the portal then reopens at Review & Submit, audited.
  const activitiesOfAcme = () =>
    t.owner((tx) =>
      tx
        .select()
        .from(caseActivities)
        .where(eq(caseActivities.caseId, acmeCase))
        .orderBy(caseActivities.position),
    );
  const setActivity = (id: number, state: string, processingData: Record<string, unknown>) =>
    t.owner((tx) =>
      tx.update(caseActivities).set({ state, processingData }).where(eq(caseActivities.id, id)),
    );
  /** What operations configured for the registered body (kept by a send-back). */
  const CONTACTS = {
    forename: 'Rita',
    surname: 'Registrar',
    email: 'rita@acme.test',
    manager_forename: 'Mo',
    manager_surname: 'Manager',
    manager_email: 'mo@acme.test',
    position: 'Lead countersignatory',
    id_verifier_username: 'rita-r',
    email_group: 'dbs@acme.test',
  };
  /** The check engine's start of the basic check, not yet sent (no reference, no exchange). */
  const unsent = (id: number) => ({
    provider: 'dbs-basic',
    reference: null,
    idempotency_key: `kestrel-ca-${id}`,
    attempts: 0,
    last_error: null,
    stage: null,
    event_ids: [],
    events: [],
    top_up: null,
    provider_configuration: CONTACTS,
  });

  it('reopens the portal at Review & Submit, audited; the person can change and submit again', async () => {
    // acmeCase was submitted above: its basic check, started by the engine, waits for the
    // customer's agent before anything goes to its provider
    const [, , check] = await activitiesOfAcme();
    if (!check) throw new Error('no basic check');
    await setActivity(check.id, 'ca-awaiting-agent', unsent(check.id));
    const sent = await call(admin, 'PATCH', `/api/case-activities/${check.id}/`, {
      state: 'ca-awaiting-subject',
    });
    expect(sent.statusCode, sent.body).toBe(200);
    expect(sent.json()).toMatchObject({
      state: 'ca-awaiting-subject',
      case: { state: 'awaiting-subject' },
    });
    // the unsent start is dropped (the next submission starts it afresh), operations' contacts kept
    const [, , after] = await activitiesOfAcme();
    expect(after?.processingData).toEqual({ provider_configuration: CONTACTS });
    const body = (await call(ada, 'GET', portal(acmeCase))).json();
    expect(body.portal).toMatchObject({
      submitted: false,
      portal_last_completed_section: 'driver-data',
      progress: { next: 'review' },
    });
    const c = (await call(ada, 'GET', `/api/s/cases/${acmeCase}/`)).json();
    expect(c.next_step).toEqual({
      label: 'Continue: Review & Submit',
      section: 'review',
      payment_intent: null,
    });
    const audits = await t.owner((tx) =>
      tx
        .select()
        .from(auditActions)
        .where(and(eq(auditActions.verb, 'updated'), eq(auditActions.objectId, String(acmeCase)))),
    );
    expect(audits.map((a) => a.changes)).toContainEqual({
      portal_last_completed_section: ['review', 'driver-data'],
    });
    const moved = await t.owner((tx) =>
      tx
        .select()
        .from(auditActions)
        .where(
          and(eq(auditActions.verb, 'state_changed'), eq(auditActions.objectId, String(check.id))),
        ),
    );
    expect(moved.map((a) => (a.changes as { state?: unknown }).state)).toContainEqual([
      'ca-awaiting-agent',
      'ca-awaiting-subject',
    ]);
    // the person can change their answers again, and submit: the engine hears of the check
    expect((await progress(ada, acmeCase, 'driver-data')).statusCode).toBe(200);
    submitted.length = 0;
    const again = await call(ada, 'POST', `${portal(acmeCase)}submit/`);
    expect(again.statusCode, again.body).toBe(200);
    expect(again.json().portal).toMatchObject({ submitted: true, state: 'in-progress' });
    expect(submitted).toEqual([{ caseId: acmeCase, ids: [check.id] }]);
  });

  it('is refused (400 on state) once a provider has it, once it has ended, or for a check the person has nothing to fill in', async () => {
    const [details, , check, licence] = await activitiesOfAcme();
    if (!details || !check || !licence) throw new Error('activities missing');
    const refusals: [number, string][] = [];
    // sent to its provider (a reference), and waiting for it
    await setActivity(check.id, 'ca-in-progress', { ...unsent(check.id), reference: 'BD-C1' });
    refusals.push([check.id, SEND_BACK_MESSAGES.withProvider]);
    // waiting for staff, but the provider has answered (no reference yet)
    const answered = { ...unsent(check.id), events: [{ at: NOW, type: 'answer', body: {} }] };
    await setActivity(check.id, 'ca-awaiting-agent', answered);
    refusals.push([check.id, SEND_BACK_MESSAGES.withProvider]);
    for (const [id, message] of refusals) {
      const res = await call(admin, 'PATCH', `/api/case-activities/${id}/`, {
        state: 'ca-awaiting-subject',
      });
      expect(res.statusCode).toBe(400);
      expect(res.json()).toEqual({ state: [message] });
    }
    // ended: basic details completed on submission
    const ended = await call(admin, 'PATCH', `/api/case-activities/${details.id}/`, {
      state: 'ca-awaiting-subject',
    });
    expect(ended.statusCode).toBe(400);
    expect(ended.json()).toEqual({ state: [SEND_BACK_MESSAGES.ended] });
    // the licence check waits for operations but has no portal section of its own
    const noSection = await call(admin, 'PATCH', `/api/case-activities/${licence.id}/`, {
      state: 'ca-awaiting-subject',
    });
    expect(noSection.statusCode).toBe(400);
    expect(noSection.json()).toEqual({ state: [SEND_BACK_MESSAGES.noSection] });
    // nothing changed: the check keeps its log, the portal stays submitted
    const [, , kept] = await activitiesOfAcme();
    expect(kept).toMatchObject({ state: 'ca-awaiting-agent', processingData: answered });
    expect((await call(ada, 'GET', portal(acmeCase))).json().portal.submitted).toBe(true);
  });
});
