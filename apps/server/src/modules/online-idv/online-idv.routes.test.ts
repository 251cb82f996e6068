import { MESSAGES, ONLINE_IDV_CHECK_TEXTS, onlineIdvOut } from '@kestrel/domain';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  buildTestApp,
  type Client,
  createAdminAndViewer,
  createCase,
  createCustomer,
  createProcess,
  createProductUser,
  createRole,
  createSubjectUser,
  login,
  ManualClock,
  type TestApp,
} from '../../../test/helpers.js';
import { type Actor, systemActor } from '../../platform/context.js';
import { readOnly, runInTenant } from '../../platform/service-context.js';
import { auditActions } from '../../platform/tables/audit.table.js';
import { signIdvCallback } from '../../providers/idv/signature.js';
import { IdvSimulator } from '../../providers/idv/simulator.js';
import { caseActivities } from '../activities/activities.table.js';
import { createCaseAddress } from '../case-data/case-data.factories.js';
import { caseAddresses, caseBasicDetails } from '../case-data/case-data.table.js';
import { checkEngine } from '../checks/providers.js';
import { subjects } from '../subjects/subjects.table.js';
import { ONLINE_IDV_CONTENT_TYPE, onlineIdvOf } from './online-idv.service.js';
import { caseOnlineIdv } from './online-idv.table.js';
import { idvProviderOf } from './provider-of.js';

/**
 * The online identity check in the portal: start, the simulator's page, the result stored on
 * return, locks (issue 16); its callbacks go to the check engine's route of the case's online
 * identity activity (issue 27; what the engine makes of them: checks/online-idv/kind.test.ts).
 */
const TODAY = '2026-11-24';
let t: TestApp;
let acme: number;
let adaCase: number; // passes
let failCase: number; // surname Failwell: fails
let bobCase: number; // another subject's
let submittedCase: number;
let returnCase: number; // result fetched on return, no callback
let ada: Client;
let fay: Client;
let admin: Client;
let opsUser: Client;
let nobody: Client;
let otherTenantCase: number;
let noIdvCase: number; // no online identity activity
let processId: number; // online identity, basic details, address history

/** The installation's simulator secret the identity provider's callbacks are signed with. */
const secret = () => checkEngine(t.app.deps).config.providers.idv.callbackSecret;

/** The engine's callback route of the case's online identity activity. */
async function callbackPath(caseId: number): Promise<string> {
  const [a] = await t.owner((tx) =>
    tx
      .select({ id: caseActivities.id })
      .from(caseActivities)
      .where(and(eq(caseActivities.caseId, caseId), eq(caseActivities.position, 0))),
  );
  return `/callbacks/checks/idv/${a?.id}/`;
}

const sim = (): IdvSimulator => {
  const p = idvProviderOf(t.app.deps);
  if (!(p instanceof IdvSimulator)) throw new Error('expected the simulator');
  return p;
};

beforeAll(async () => {
  t = await buildTestApp({
    clock: new ManualClock(`${TODAY}T09:00:00Z`),
    config: { publicUrl: 'http://localhost:8080' },
  });
  await t.owner(async (tx) => {
    acme = (await createCustomer(tx, { name: 'Acme' })).id;
    await createAdminAndViewer(tx, acme);
    await createProductUser(tx, { customerId: null, username: 'ops@k.test', roles: ['ops'] });
    const none = await createRole(tx, { customerId: acme, name: 'nothing', permissions: [] });
    await createProductUser(tx, {
      customerId: acme,
      username: 'nobody@acme.test',
      roles: [none.id],
    });
    otherTenantCase = (
      await createCase(tx, { customerId: (await createCustomer(tx, { name: 'Other' })).id })
    ).id;
    const adaS = await createSubjectUser(tx, {
      customerId: acme,
      email: 'ada@example.test',
      firstName: 'Ada',
      lastName: 'Byron',
      dob: '1985-12-10',
    });
    const fayS = await createSubjectUser(tx, {
      customerId: acme,
      email: 'fay@example.test',
      firstName: 'Fay',
      lastName: 'Failwell',
    });
    const bobS = await createSubjectUser(tx, { customerId: acme, email: 'bob@example.test' });
    // the portal's online identity section is the online identity activity's
    processId = (
      await createProcess(tx, {
        customerId: acme,
        requirements: ['online-idv', 'basic-details', 'address-history'],
      })
    ).id;
    const open = (subjectId: number) => createCase(tx, { customerId: acme, subjectId, processId });
    adaCase = (await open(adaS.id)).id;
    returnCase = (await open(adaS.id)).id;
    submittedCase = (
      await createCase(tx, {
        customerId: acme,
        subjectId: adaS.id,
        processId,
        activityStates: ['ca-awaiting-agent'],
      })
    ).id;
    failCase = (await open(fayS.id)).id;
    bobCase = (await open(bobS.id)).id;
    noIdvCase = (await createCase(tx, { customerId: acme, subjectId: adaS.id })).id;
    // Ada typed a current address before the check: the verified one replaces it
    await createCaseAddress(
      tx,
      { customerId: acme, caseId: adaCase },
      {
        lineOne: '1 Old Road',
        lineOneDbs: '1 Old Road DBS',
        town: 'Leeds',
        postcode: 'LS1 1AA',
        fromDate: '2020-01-01',
        current: true,
        source: 'manual',
      },
    );
  });
  ada = await login(t.app, 'ada@example.test');
  fay = await login(t.app, 'fay@example.test');
  admin = await login(t.app, 'admin@acme.test');
  opsUser = await login(t.app, 'ops@k.test');
  nobody = await login(t.app, 'nobody@acme.test');
});
afterAll(() => t.close());

const call = (
  c: Client | null,
  method: 'GET' | 'POST' | 'PATCH' | 'DELETE',
  url: string,
  payload?: object,
) =>
  t.app.inject({
    method,
    url,
    ...(c ? { headers: c.headers } : {}),
    ...(payload ? { payload } : {}),
  });

const idvUrl = (caseId: number, action = '') => `/api/s/case-online-idv/${caseId}/${action}`;

const audits = (contentType: string, objectId: number) =>
  t.owner((tx) =>
    tx
      .select()
      .from(auditActions)
      .where(
        and(eq(auditActions.contentType, contentType), eq(auditActions.objectId, String(objectId))),
      ),
  );

/** The person on the simulator's page presses a button; answers the redirect. */
async function onSimulator(url: string, action: 'verify' | 'cancel') {
  const path = new URL(url).pathname;
  const page = await t.app.inject({ method: 'GET', url: path });
  expect(page.statusCode).toBe(200);
  expect(page.headers['content-type']).toMatch(/text\/html/);
  return t.app.inject({
    method: 'POST',
    url: path,
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    payload: `action=${action}`,
  });
}

describe('starting the check', () => {
  it('is not started at first', async () => {
    const res = await call(ada, 'GET', idvUrl(adaCase));
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      session: null,
      ibv_verified: false,
      ibv_session: null,
      manual_idv_approved: false,
      id_profile: null,
      verified: false,
      status: 'not-started',
      url: null,
    });
  });

  it('is the subject’s own: 404 for another subject’s case, 403 for staff, 403 without CSRF', async () => {
    expect((await call(ada, 'GET', idvUrl(bobCase))).statusCode).toBe(404);
    expect((await call(ada, 'POST', idvUrl(bobCase, 'start/'))).json()).toEqual({
      detail: 'Not found.',
    });
    expect((await call(ada, 'GET', idvUrl(999999))).statusCode).toBe(404);
    expect((await call(ada, 'GET', '/api/s/case-online-idv/abc/')).statusCode).toBe(404);
    expect((await call(admin, 'GET', idvUrl(adaCase))).statusCode).toBe(403);
    const noCsrf = await t.app.inject({
      method: 'POST',
      url: idvUrl(adaCase, 'start/'),
      headers: { cookie: ada.cookie },
    });
    expect(noCsrf.statusCode).toBe(403);
    expect(await t.owner((tx) => tx.select().from(caseOnlineIdv))).toEqual([]);
  });

  it('is refused once the case is submitted (403), and without an online identity activity (404)', async () => {
    const res = await call(ada, 'POST', idvUrl(submittedCase, 'start/'));
    expect(res.statusCode).toBe(403);
    expect((await call(ada, 'POST', idvUrl(noIdvCase, 'start/'))).statusCode).toBe(404);
  });

  it('opens a provider session, audited, and answers the provider’s page', async () => {
    const res = await call(ada, 'POST', idvUrl(adaCase, 'start/'));
    expect(res.statusCode).toBe(201);
    const { session, url } = res.json();
    expect(session).toMatch(/^sim_/);
    expect(url).toBe(`http://localhost:8080/idv-simulator/sessions/${session}/`);
    const got = (await call(ada, 'GET', idvUrl(adaCase))).json();
    expect(got).toMatchObject({ session, status: 'in-progress', url, verified: false });
    const [audit] = await audits(ONLINE_IDV_CONTENT_TYPE, adaCase);
    expect(audit).toMatchObject({ verb: 'created', customerId: acme, actorType: 'SubjectUser' });
    expect(audit?.changes).toMatchObject({ session: [null, session], provider: 'simulator' });
    // the session carries who the check is for and where to come back
    expect(sim().session(session)?.request).toMatchObject({
      reference: `case-${adaCase}`,
      person: { forename: 'Ada', surname: 'Byron', dob: '1985-12-10' },
      returnUrl: `http://localhost:80/s/case-portal/${adaCase}/online-idv?idv=return`,
      callbackUrl: `http://localhost:8080${await callbackPath(adaCase)}`,
    });
  });
});

describe('a pass', () => {
  it('the simulator sends the person back, and the result is stored on return', async () => {
    const { url, session } = (await call(ada, 'GET', idvUrl(adaCase))).json();
    const page = await t.app.inject({ method: 'GET', url: new URL(url).pathname });
    expect(page.body).toContain('Ada Byron');
    expect(page.body).toContain('Verify my identity');
    const back = await onSimulator(url, 'verify');
    expect(back.statusCode).toBe(303);
    expect(back.headers.location).toBe(
      `http://localhost:80/s/case-portal/${adaCase}/online-idv?idv=return`,
    );
    // the callback went to the engine, which applies nothing before the case is submitted
    await t.settle();
    expect((await call(ada, 'GET', idvUrl(adaCase))).json().status).toBe('in-progress');
    // back in the portal, the section asks for the result
    const got = (await call(ada, 'POST', idvUrl(adaCase, 'refresh/'))).json();
    expect(got).toMatchObject({
      session,
      status: 'passed',
      verified: true,
      ibv_verified: false,
      url: null,
      id_profile: {
        outcome: 'passed',
        level_of_assurance: 'medium',
        person: { forename: 'Ada', surname: 'Byron', dob: '1985-12-10' },
        address: { line_one: '10 Verified Street', postcode: 'SW1A 1AA', from_date: '2023-11-24' },
      },
    });
  });

  it('fills the basic details and the current address with source idsp', async () => {
    const basic = (await call(ada, 'GET', `/api/s/case-basic-details/${adaCase}/`)).json();
    expect(basic).toMatchObject({
      forename: 'Ada',
      surname: 'Byron',
      dob: '1985-12-10',
      online_idv: true,
    });
    expect([...basic.locked_fields].sort()).toEqual(['dob', 'forename', 'middlename', 'surname']);
    // the first save keeps the phone number the subject's profile prefilled
    expect(basic.phone_number).not.toBe('');
    const list = (await call(ada, 'GET', `/api/s/case-addresses/?case=${adaCase}`)).json();
    expect(list.results).toHaveLength(1);
    expect(list.results[0]).toMatchObject({
      line_one: '10 Verified Street',
      town: 'London',
      postcode: 'SW1A 1AA',
      current: true,
      source: 'idsp',
      line_one_dbs: '',
      from_date: '2023-11-24',
    });
    const addressAudit = await audits('cases.caseaddress', list.results[0].id);
    expect(addressAudit.at(-1)?.changes).toMatchObject({ source: 'idsp' });
  });

  it('locks them: subject and customer edits are refused with a clear message', async () => {
    const bySubject = await call(ada, 'PATCH', `/api/s/case-basic-details/${adaCase}/`, {
      surname: 'Lovelace',
    });
    expect(bySubject.statusCode).toBe(400);
    expect(bySubject.json()).toEqual({ surname: [MESSAGES.idspLocked] });
    const byStaff = await call(admin, 'PATCH', `/api/case-basic-details/${adaCase}/`, {
      dob: '1980-01-01',
    });
    expect(byStaff.statusCode).toBe(400);
    expect(byStaff.json()).toEqual({ dob: [MESSAGES.idspLocked] });
    const [address] = await t.owner((tx) =>
      tx.select().from(caseAddresses).where(eq(caseAddresses.caseId, adaCase)),
    );
    const id = address?.id ?? 0;
    const edit = await call(admin, 'PATCH', `/api/case-addresses/${id}/`, { town: 'York' });
    expect(edit.statusCode).toBe(400);
    expect(edit.json()).toEqual({ town: [MESSAGES.idspLocked] });
    const del = await call(ada, 'DELETE', `/api/s/case-addresses/${id}/`);
    expect(del.statusCode).toBe(400);
    expect(del.json()).toEqual({ source: [MESSAGES.idspLockedDelete] });
    // fields the check did not provide stay editable
    const phone = await call(ada, 'PATCH', `/api/s/case-basic-details/${adaCase}/`, {
      gender: 'female',
      title: 'Ms',
      phone_number: '07911 123456',
      nationality: 'GBR',
    });
    expect([phone.statusCode, phone.json()]).toEqual([200, expect.anything()]);
  });

  it('a redelivered callback answers 200 and changes nothing; a second start is refused', async () => {
    const { session } = (await call(ada, 'GET', idvUrl(adaCase))).json();
    const before = (await audits(ONLINE_IDV_CONTENT_TYPE, adaCase)).length;
    const { body, signature } = sim().finish(session);
    const again = await t.app.inject({
      method: 'POST',
      url: await callbackPath(adaCase),
      headers: { 'content-type': 'application/json', 'idv-signature': signature },
      payload: body,
    });
    expect(again.statusCode).toBe(200);
    expect(again.json()).toEqual({ status: 'duplicate' });
    expect((await audits(ONLINE_IDV_CONTENT_TYPE, adaCase)).length).toBe(before);
    const restart = await call(ada, 'POST', idvUrl(adaCase, 'start/'));
    expect(restart.statusCode).toBe(400);
    expect(restart.json()).toEqual({ non_field_errors: [ONLINE_IDV_CHECK_TEXTS.alreadyVerified] });
  });

  it('onlineIdvOf gives the portal payload’s online_idv, in the caller’s tenant', async () => {
    const staff: Actor = { ...systemActor, type: 'ProductUser', id: 1, customerId: acme };
    const out = await runInTenant(t.app.deps, staff, (ctx) => onlineIdvOf(ctx, adaCase), readOnly);
    expect(onlineIdvOut.parse(out)).toMatchObject({ verified: true, ibv_verified: false });
    const blank = await runInTenant(
      t.app.deps,
      staff,
      (ctx) => onlineIdvOf(ctx, bobCase),
      readOnly,
    );
    expect(blank).toEqual({
      session: null,
      ibv_verified: false,
      ibv_session: null,
      manual_idv_approved: false,
      id_profile: null,
      verified: false,
    });
  });
});

describe('customer staff and operations', () => {
  it('retrieve the point 3 data by case id (cases.view_case; another tenant’s case is 404)', async () => {
    const staff = await call(admin, 'GET', `/api/case-online-idv/${adaCase}/`);
    expect(staff.statusCode).toBe(200);
    expect(onlineIdvOut.parse(staff.json())).toMatchObject({ verified: true });
    const ops = await call(opsUser, 'GET', `/api/ops/case-online-idv/${adaCase}/`);
    expect(ops.json()).toEqual(staff.json());
    expect((await call(admin, 'GET', `/api/case-online-idv/${otherTenantCase}/`)).statusCode).toBe(
      404,
    );
    expect((await call(ada, 'GET', `/api/case-online-idv/${adaCase}/`)).statusCode).toBe(403);
    expect((await call(nobody, 'GET', `/api/case-online-idv/${adaCase}/`)).statusCode).toBe(403);
  });
});

describe('a failure', () => {
  it('stores the reason, fills nothing, and the check cannot be restarted', async () => {
    const { url } = (await call(fay, 'POST', idvUrl(failCase, 'start/'))).json();
    expect((await onSimulator(url, 'verify')).statusCode).toBe(303);
    const got = (await call(fay, 'POST', idvUrl(failCase, 'refresh/'))).json();
    expect(got).toMatchObject({
      status: 'failed',
      verified: false,
      id_profile: {
        outcome: 'failed',
        failure_reason: 'Your identity document could not be verified.',
      },
    });
    expect(
      await t.owner((tx) =>
        tx.select().from(caseBasicDetails).where(eq(caseBasicDetails.caseId, failCase)),
      ),
    ).toEqual([]);
    expect(
      await t.owner((tx) =>
        tx.select().from(caseAddresses).where(eq(caseAddresses.caseId, failCase)),
      ),
    ).toEqual([]);
    const edit = await call(fay, 'PATCH', `/api/s/case-basic-details/${failCase}/`, {
      surname: 'Fairwell',
      forename: 'Fay',
      gender: 'female',
      title: 'Ms',
      dob: '1990-04-12',
      phone_number: '07911 123456',
      nationality: 'GBR',
    });
    expect([edit.statusCode, edit.json()]).toEqual([200, expect.anything()]);
  });
});

describe('the callback route (the engine\u2019s)', () => {
  let session: string;
  let path: string;
  beforeAll(async () => {
    session = (await call(ada, 'POST', idvUrl(returnCase, 'start/'))).json().session;
    path = await callbackPath(returnCase);
  });
  const post = (body: string, signature?: string) =>
    t.app.inject({
      method: 'POST',
      url: path,
      headers: {
        'content-type': 'application/json',
        ...(signature ? { 'idv-signature': signature } : {}),
      },
      payload: body,
    });
  const status = async () =>
    (
      await t.owner((tx) =>
        tx.select().from(caseOnlineIdv).where(eq(caseOnlineIdv.caseId, returnCase)),
      )
    )[0]?.status;

  it('refuses unsigned, wrongly signed, stale and malformed callbacks, storing nothing', async () => {
    const { body, signature } = sim().finish(session);
    expect((await post(body)).statusCode).toBe(401);
    expect((await post(body, signIdvCallback('wrong', body, t.clock.now()))).statusCode).toBe(401);
    expect((await post(body.replace('Byron', 'Evil'), signature)).statusCode).toBe(401);
    t.clock.advance(6 * 60_000);
    expect((await post(body, signature)).statusCode).toBe(401);
    t.clock.advance(-6 * 60_000);
    // nested 10,000 deep: the one body parser's depth limit, never a stack overflow (500)
    const deep = `${body.slice(0, -1)},"deep":${'['.repeat(10_000)}${']'.repeat(10_000)}}`;
    const d = await post(deep, signIdvCallback(secret(), deep, t.clock.now()));
    expect(d.statusCode).toBe(400);
    const junk = '{"id":"evt","result":{}}';
    expect((await post(junk, signIdvCallback(secret(), junk, t.clock.now()))).statusCode).toBe(400);
    await t.settle();
    expect(await status()).toBe('in-progress');
  });

  it('on return, refresh fetches the result from the provider and stores it', async () => {
    // the person finished at the provider (sim().finish above); its callback came before the
    // case was submitted, so the portal asks for the result
    const res = await call(ada, 'POST', idvUrl(returnCase, 'refresh/'));
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ status: 'passed', verified: true });
    expect(await status()).toBe('passed');
    // another subject may not refresh it
    expect((await call(fay, 'POST', idvUrl(returnCase, 'refresh/'))).statusCode).toBe(404);
  });
});

describe('the date of birth sent', () => {
  it('is the one the person gave at sign-up when the customer’s record has none', async () => {
    const deeCase = await t.owner(async (tx) => {
      const dee = await createSubjectUser(tx, {
        customerId: acme,
        email: 'dee@example.test',
        firstName: 'Dee',
        lastName: 'Newcomer',
        dob: '1979-02-03',
      });
      // A case opened for a new person: the customer's record has no date of birth; the
      // person gives it on the complete-profile page (their login's).
      await tx.update(subjects).set({ dob: null }).where(eq(subjects.id, dee.id));
      return (await createCase(tx, { customerId: acme, subjectId: dee.id, processId })).id;
    });
    const dee = await login(t.app, 'dee@example.test');
    const res = await call(dee, 'POST', idvUrl(deeCase, 'start/'));
    expect(res.statusCode, res.body).toBe(201);
    expect(sim().session(res.json().session)?.request.person).toMatchObject({
      forename: 'Dee',
      surname: 'Newcomer',
      dob: '1979-02-03',
    });
  });
});
