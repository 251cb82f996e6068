// @postgres: two grants of one person at once (the subject row's lock across connections)
import {
  APPLICATION_MESSAGES,
  TAX_CHECK_CODE_EXPIRED,
  TAX_CHECK_CODE_REQUIRED,
  TAX_CHECK_CODE_UNKNOWN,
} from '@kestrel/domain';
import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  buildTestApp,
  type Client,
  createCustomer,
  createProductUser,
  createSubjectUser,
  login,
  type TestApp,
} from '../../../test/helpers.js';
import { auditActions } from '../../platform/tables/audit.table.js';
import { TEST_CARDS } from '../../providers/payments/simulator.js';
import { caseActivities } from '../activities/activities.table.js';
import { cases } from '../cases/cases.table.js';
import { subjects } from '../subjects/subjects.table.js';
import {
  licenceDefinitions,
  licenceGroups,
  licenceSubGroups,
  licences,
  lmsApplicationPortals,
} from './lms.table.js';
import { lmsApplications } from './lms-applications.table.js';

// Licence applications (issue 32): apply on a portal (a subject of this council or of another),
// the fee and the case opened exactly once, the HMRC tax check, the council's decisions, a
// renewal, and the register of refusals, suspensions and revocations; permissions and tenancy.

let t: TestApp;
let northgate: number;
let council: Client;
let viewer: Client;
let otherCouncil: Client;
let dana: Client;
let sam: Client;
const ids = { free: 0, paid: 0, renewal: 0, closed: 0, definition: 0 };

const call = (client: Client, method: string, url: string, payload?: unknown) =>
  t.app.inject({
    method: method as 'GET',
    url,
    headers: client.headers,
    ...(payload === undefined ? {} : { payload: payload as Record<string, unknown> }),
  });
const ok = async (client: Client, method: string, url: string, payload?: unknown) => {
  const res = await call(client, method, url, payload);
  expect(res.statusCode, res.body).toBeLessThan(300);
  return res.json();
};
/** The checks of an application's case done (the simulators' outcome, set directly). */
const completeChecks = (caseId: number) =>
  t.owner((tx) =>
    tx
      .update(caseActivities)
      .set({ state: 'ca-complete' })
      .where(and(eq(caseActivities.customerId, northgate), eq(caseActivities.caseId, caseId))),
  );

beforeAll(async () => {
  t = await buildTestApp({ config: { jobWorkers: false } });
  await t.owner(async (tx) => {
    northgate = (await createCustomer(tx, { name: 'Northgate Council' })).id;
    const southby = (await createCustomer(tx, { name: 'Southby Council' })).id;
    await createProductUser(tx, { customerId: northgate, username: 'officer@northgate.test' });
    await createProductUser(tx, {
      customerId: northgate,
      username: 'viewer@northgate.test',
      roles: ['viewer'],
    });
    await createProductUser(tx, { customerId: southby, username: 'officer@southby.test' });
    await createSubjectUser(tx, {
      customerId: northgate,
      email: 'dana@example.test',
      firstName: 'Dana',
      lastName: 'Driver',
      dob: '1985-03-02',
    });
    await createSubjectUser(tx, {
      customerId: southby,
      email: 'sam@example.test',
      firstName: 'Sam',
      lastName: 'Southby',
    });
  });
  council = await login(t.app, 'officer@northgate.test');
  viewer = await login(t.app, 'viewer@northgate.test');
  otherCouncil = await login(t.app, 'officer@southby.test');
  dana = await login(t.app, 'dana@example.test');
  sam = await login(t.app, 'sam@example.test');

  const g = await ok(council, 'POST', '/api/lms/licence-groups/', {
    name: 'Taxi and private hire',
    is_published: true,
  });
  const sg = await ok(council, 'POST', '/api/lms/licence-sub-groups/', {
    group: g.id,
    name: 'Hackney carriage driver',
    code: 'HCD',
    is_published: true,
  });
  const def = await ok(council, 'POST', '/api/lms/definitions/', {
    sub_group: sg.id,
    name: 'Hackney carriage driver',
    duration_years: 3,
    fee_pence: 27500,
    requirements: [{ activity_type: 'dbs-enhanced' }],
    is_published: true,
  });
  ids.definition = def.id;
  const portal = async (title: string, more: Record<string, unknown>) =>
    (
      await ok(council, 'POST', `/api/lms/definitions/${def.id}/application_portals/`, {
        title,
        is_open: true,
        fee_pence: 0,
        ...more,
      })
    ).id as number;
  ids.free = await portal('Apply (no fee)', {});
  ids.paid = await portal('Apply', { fee_pence: 27500 });
  ids.renewal = await portal('Renew', { kind: 'renewal', fee_pence: 10000 });
  ids.closed = await portal('Closed', { is_open: false });
});
afterAll(() => t.close());

describe('the subject applies', () => {
  it('lists open portals with the tax check each needs and no application yet', async () => {
    const list = await ok(dana, 'GET', '/api/lms/s/application-portals/');
    expect(list.count).toBe(3);
    const byId = (id: number) => list.results.find((p: { id: number }) => p.id === id);
    expect(byId(ids.free)).toMatchObject({ tax_check: 'confirm', my_application: null });
    expect(byId(ids.renewal)).toMatchObject({ tax_check: 'code', kind: 'renewal' });
    expect(byId(ids.closed)).toBeUndefined();
    expect(
      (await call(dana, 'GET', `/api/lms/s/application-portals/${ids.closed}/`)).statusCode,
    ).toBe(404);
    // subject routes are the subject's: a council officer is refused
    expect((await call(council, 'GET', '/api/lms/s/application-portals/')).statusCode).toBe(403);
  });

  it('without a fee: the confirmation is needed, then the case opens at once; applying again answers it', async () => {
    const missing = await call(
      dana,
      'POST',
      `/api/lms/s/application-portals/${ids.free}/apply/`,
      {},
    );
    expect(missing.statusCode).toBe(400);
    expect(missing.json()).toHaveProperty('tax_responsibilities_confirmed');
    const res = await call(dana, 'POST', `/api/lms/s/application-portals/${ids.free}/apply/`, {
      tax_responsibilities_confirmed: true,
    });
    expect(res.statusCode, res.body).toBe(201);
    const out = res.json();
    expect(out.state).toBe('in_progress');
    expect(out.next_url).toMatch(/^\/s\/case-portal\/\d+$/);
    const again = await call(dana, 'POST', `/api/lms/s/application-portals/${ids.free}/apply/`, {
      tax_responsibilities_confirmed: true,
    });
    expect(again.statusCode).toBe(200);
    expect(again.json().application_id).toBe(out.application_id);
    const detail = await ok(council, 'GET', `/api/lms/applications/${out.application_id}/`);
    expect(detail).toMatchObject({
      state: 'in_progress',
      kind: 'new',
      checks_total: 1,
      checks_done: 0,
      tax_check: { needed: 'confirm', status: 'not_checked' },
      applicant: { name: 'Dana Driver', email: 'dana@example.test', dob: '1985-03-02' },
    });
    expect(detail.checks[0]).toMatchObject({ kind: 'dbs-enhanced' });
    expect(out.next_url).toBe(`/s/case-portal/${detail.case_id}`);
    const portal = await ok(dana, 'GET', `/api/lms/s/application-portals/${ids.free}/`);
    expect(portal.my_application).toMatchObject({ id: out.application_id, state: 'in_progress' });
  });

  it('a closed portal says so; an unknown one is 404', async () => {
    const closed = await call(dana, 'POST', `/api/lms/s/application-portals/${ids.closed}/apply/`, {
      tax_responsibilities_confirmed: true,
    });
    expect(closed.statusCode).toBe(400);
    expect(closed.json().non_field_errors[0]).toMatch(/closed/);
    expect(
      (await call(dana, 'POST', '/api/lms/s/application-portals/999999/apply/', {})).statusCode,
    ).toBe(404);
  });

  it('with a fee: awaiting payment; the payment opens exactly one case, however often recorded', async () => {
    const out = await ok(dana, 'POST', `/api/lms/s/application-portals/${ids.paid}/apply/`, {
      tax_responsibilities_confirmed: true,
    });
    expect(out.state).toBe('awaiting_payment');
    const before = await ok(council, 'GET', `/api/lms/applications/${out.application_id}/`);
    expect(before).toMatchObject({ case_id: null, fee_pence: 27500, fee_display: '£275.00' });
    // a viewer may not record it
    expect(
      (
        await call(
          viewer,
          'POST',
          `/api/lms/applications/${out.application_id}/record-payment/`,
          {},
        )
      ).statusCode,
    ).toBe(403);
    const paid = await ok(
      council,
      'POST',
      `/api/lms/applications/${out.application_id}/record-payment/`,
      { note: 'Paid at the counter' },
    );
    expect(paid.state).toBe('in_progress');
    expect(paid.case_id).not.toBeNull();
    const again = await ok(
      council,
      'POST',
      `/api/lms/applications/${out.application_id}/record-payment/`,
      {},
    );
    expect(again.case_id).toBe(paid.case_id);
    const [n] = await t.owner((tx) =>
      tx
        .select({ n: sql<number>`count(*)::int` })
        .from(cases)
        .where(and(eq(cases.customerId, northgate), eq(cases.id, paid.case_id))),
    );
    expect(n?.n).toBe(1);
    const mine = await ok(dana, 'GET', '/api/lms/s/applications/');
    expect(mine.results.find((a: { id: number }) => a.id === out.application_id)).toMatchObject({
      state: 'in_progress',
      case_id: paid.case_id,
      customer_name: 'Northgate Council',
      portal_title: 'Apply',
      next_url: `/s/case-portal/${paid.case_id}`,
    });
  });

  it('with a fee paid on the payment portal: the webhook opens the case once; a declined card pays again', async () => {
    await t.owner((tx) =>
      createSubjectUser(tx, {
        customerId: northgate,
        email: 'pat@example.test',
        firstName: 'Pat',
        lastName: 'Payer',
        dob: '1980-01-01',
      }),
    );
    const pat = await login(t.app, 'pat@example.test');
    const out = await ok(pat, 'POST', `/api/lms/s/application-portals/${ids.paid}/apply/`, {
      tax_responsibilities_confirmed: true,
    });
    expect(out.state).toBe('awaiting_payment');
    expect(out.next_url).toMatch(/^\/payment-portal\/pit_/);
    // the payment portal names the licence application and continues to the dashboard
    const link = new URL(String(out.next_url), 'http://x');
    expect(link.searchParams.get('next')).toBe('/s/dashboard');
    expect(link.searchParams.get('for')).toBe('licence');
    const publicId = link.pathname.split('/').pop() ?? '';
    // applying again answers the same application and the same payment link
    const again = await ok(pat, 'POST', `/api/lms/s/application-portals/${ids.paid}/apply/`, {
      tax_responsibilities_confirmed: true,
    });
    expect(again).toEqual(out);
    const mine = async () =>
      (
        (await ok(pat, 'GET', '/api/lms/s/applications/')).results as {
          id: number;
          state: string;
          next_url: string | null;
          case_id: number | null;
        }[]
      ).find((a) => a.id === out.application_id);
    expect((await mine())?.next_url).toBe(out.next_url);
    await t.settle(); // the provider's intent is made by its job
    const portal = async (id: string) =>
      (await t.app.inject({ method: 'GET', url: `/api/public/payment-portal/${id}/` })).json();
    const pay = async (id: string, card: string) => {
      const p = await portal(id);
      expect(p).toMatchObject({
        amount_pence: 27500,
        check_name: null,
        description: 'Licence application fee: Hackney carriage driver',
      });
      return t.app.inject({
        method: 'POST',
        url: `${p.api_base}/v1/payment_intents/${p.provider_intent_id}/confirm`,
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        payload: new URLSearchParams({
          key: p.publishable_key,
          client_secret: p.client_secret ?? '',
          'payment_method_data[card][number]': card,
          return_url: `/payment-portal/${p.id}`,
        }).toString(),
      });
    };
    // declined: still awaiting its fee, and a new payment link
    await pay(publicId, TEST_CARDS.declined);
    await t.settle();
    expect(await mine()).toMatchObject({ state: 'awaiting_payment', case_id: null });
    const retry = await ok(pat, 'POST', `/api/lms/s/application-portals/${ids.paid}/apply/`, {
      tax_responsibilities_confirmed: true,
    });
    expect(retry.next_url).not.toBe(out.next_url);
    const second = new URL(String(retry.next_url), 'http://x').pathname.split('/').pop() ?? '';
    await t.settle();
    expect((await pay(second, TEST_CARDS.success)).json().status).toBe('succeeded');
    await t.settle(); // the webhook, then the job opening the case in the council's tenant
    await t.settle();
    const done = await mine();
    expect(done).toMatchObject({ state: 'in_progress' });
    expect(done?.case_id).not.toBeNull();
    expect(done?.next_url).toBe(`/s/case-portal/${done?.case_id}`);
    const detail = await ok(council, 'GET', `/api/lms/applications/${out.application_id}/`);
    expect(detail.case_id).toBe(done?.case_id);
    const [n] = await t.owner((tx) =>
      tx
        .select({ n: sql<number>`count(*)::int` })
        .from(cases)
        .where(and(eq(cases.customerId, northgate), eq(cases.subjectId, detail.applicant.subject))),
    );
    expect(n?.n).toBe(1);
  });

  it('a subject of another council applies: it becomes this council’s subject', async () => {
    const out = await ok(sam, 'POST', `/api/lms/s/application-portals/${ids.free}/apply/`, {
      tax_responsibilities_confirmed: true,
    });
    const detail = await ok(council, 'GET', `/api/lms/applications/${out.application_id}/`);
    expect(detail.applicant).toMatchObject({ name: 'Sam Southby', email: 'sam@example.test' });
    const [rec] = await t.owner((tx) =>
      tx
        .select()
        .from(subjects)
        .where(and(eq(subjects.customerId, northgate), eq(subjects.email, 'sam@example.test'))),
    );
    expect(rec?.id).toBe(detail.applicant.subject);
    // Dana does not see Sam's application
    expect(
      (await call(dana, 'GET', `/api/lms/s/applications/${out.application_id}/`)).statusCode,
    ).toBe(404);
  });
});

describe('the council decides', () => {
  let app: number;
  let caseId: number;

  it('lists with filters; permissions and tenancy', async () => {
    const list = await ok(council, 'GET', '/api/lms/applications/?state=in_progress&q=dana');
    expect(list.count).toBe(2);
    app = list.results.find((a: { portal: number }) => a.portal === ids.free).id;
    caseId = list.results.find((a: { portal: number }) => a.portal === ids.free).case_id;
    // Dana's, and Pat's paid on the payment portal
    expect((await ok(council, 'GET', `/api/lms/applications/?portal=${ids.paid}`)).count).toBe(2);
    expect((await ok(council, 'GET', '/api/lms/applications/?q=app-')).count).toBe(0);
    expect((await ok(council, 'GET', `/api/lms/applications/?q=APP-${app}`)).count).toBe(1);
    expect((await call(council, 'GET', '/api/lms/applications/?state=nope')).statusCode).toBe(400);
    for (const who of [viewer, dana]) {
      expect((await call(who, 'GET', '/api/lms/applications/')).statusCode).toBe(403);
      expect((await call(who, 'POST', `/api/lms/applications/${app}/grant/`, {})).statusCode).toBe(
        403,
      );
    }
    expect((await call(otherCouncil, 'GET', `/api/lms/applications/${app}/`)).statusCode).toBe(404);
    expect(
      (await call(otherCouncil, 'POST', `/api/lms/applications/${app}/refuse/`, { reason: 'x' }))
        .statusCode,
    ).toBe(404);
    expect((await ok(otherCouncil, 'GET', '/api/lms/applications/')).count).toBe(0);
  });

  it('asks for more; the subject sees the question and answers; only then back in progress', async () => {
    expect(
      (await call(council, 'POST', `/api/lms/applications/${app}/request-info/`, { message: ' ' }))
        .statusCode,
    ).toBe(400);
    const asked = await ok(council, 'POST', `/api/lms/applications/${app}/request-info/`, {
      message: 'Please upload your medical certificate.',
    });
    expect(asked.state).toBe('more_info_requested');
    const mine = await ok(dana, 'GET', `/api/lms/s/applications/${app}/`);
    expect(mine.info_request).toBe('Please upload your medical certificate.');
    expect(
      (await call(sam, 'POST', `/api/lms/s/applications/${app}/respond/`, { message: 'x' }))
        .statusCode,
    ).toBe(404);
    const grantNow = await call(council, 'POST', `/api/lms/applications/${app}/grant/`, {});
    expect(grantNow.statusCode).toBe(400);
    const answered = await ok(dana, 'POST', `/api/lms/s/applications/${app}/respond/`, {
      message: 'Uploaded.',
    });
    expect(answered).toMatchObject({ state: 'in_progress', info_request: null });
    const twice = await call(dana, 'POST', `/api/lms/s/applications/${app}/respond/`, {
      message: 'Again',
    });
    expect(twice.statusCode).toBe(400);
  });

  it('grants only once every check is complete: the licence is issued, numbered uniquely', async () => {
    const early = await call(council, 'POST', `/api/lms/applications/${app}/grant/`, {});
    expect(early.statusCode).toBe(400);
    expect(early.json().non_field_errors[0]).toMatch(/every check is complete/);
    await completeChecks(caseId);
    const granted = await ok(council, 'POST', `/api/lms/applications/${app}/grant/`, {
      conditions: 'Wear the badge.',
    });
    expect(granted).toMatchObject({ state: 'granted', checks_done: 1, checks_total: 1 });
    expect(granted.licence_number).toMatch(/^HCD\/\d{4}\/\d{5}$/);
    expect(granted.decided_at).not.toBeNull();
    const lic = await ok(council, 'GET', `/api/lms/licences/${granted.licence_id}/`);
    expect(lic).toMatchObject({ holder_name: 'Dana Driver', conditions: 'Wear the badge.' });
    expect(
      (await call(council, 'POST', `/api/lms/applications/${app}/grant/`, {})).statusCode,
    ).toBe(400);
    expect(
      (await call(council, 'POST', `/api/lms/applications/${app}/refuse/`, { reason: 'x' }))
        .statusCode,
    ).toBe(400);
    // another person's grant gets another number
    const paid = (await ok(council, 'GET', `/api/lms/applications/?portal=${ids.paid}`))
      .results as { id: number; case_id: number; applicant: { name: string } }[];
    const pats = paid.find((a) => a.applicant.name.startsWith('Pat'));
    const danas = paid.find((a) => a.applicant.name.startsWith('Dana'));
    if (!pats || !danas) throw new Error('Pat and Dana applied on the payment portal');
    await completeChecks(pats.case_id);
    const second = await ok(council, 'POST', `/api/lms/applications/${pats.id}/grant/`, {});
    expect(second.licence_number).not.toBe(granted.licence_number);
    const mine = await ok(dana, 'GET', `/api/lms/s/applications/${app}/`);
    expect(mine).toMatchObject({ state: 'granted', licence_number: granted.licence_number });
    expect(mine.next_url).toBeNull();
  });

  it('refuses with a reason; the refusal is on the register', async () => {
    const samApp = (await ok(council, 'GET', '/api/lms/applications/?q=sam')).results[0];
    const empty = await call(council, 'POST', `/api/lms/applications/${samApp.id}/refuse/`, {});
    expect(empty.statusCode).toBe(400);
    expect(empty.json()).toHaveProperty('reason');
    const refused = await ok(council, 'POST', `/api/lms/applications/${samApp.id}/refuse/`, {
      reason: 'Failed the knowledge test twice.',
    });
    expect(refused).toMatchObject({
      state: 'refused',
      decision_reason: 'Failed the knowledge test twice.',
    });
    const reg = await ok(council, 'GET', '/api/lms/register/?q=sam');
    expect(reg.count).toBe(1);
    expect(reg.results[0]).toMatchObject({
      kind: 'refusal',
      name: 'Sam Southby',
      application_id: samApp.id,
      reason: 'Failed the knowledge test twice.',
    });
    expect((await ok(otherCouncil, 'GET', '/api/lms/register/?q=sam')).count).toBe(0);
    expect((await call(viewer, 'GET', '/api/lms/register/')).statusCode).toBe(403);
    expect((await call(council, 'GET', '/api/lms/register/?dob=02-03-1985')).statusCode).toBe(400);
    // found by CI's fuzz: the shape of a date but no such day (PostgreSQL refused year 0: a 500)
    for (const dob of ['0000-01-01', '1985-02-30']) {
      const refused = await call(council, 'GET', `/api/lms/register/?dob=${dob}`);
      expect(refused.statusCode).toBe(400);
      expect(refused.json()).toEqual({ dob: ['Invalid date'] });
      const licences = await call(council, 'GET', `/api/lms/licences/?dob=${dob}`);
      expect(licences.statusCode).toBe(400);
      expect(licences.json()).toEqual({ dob: ['Invalid date'] });
    }
  });

  it('a suspension is on the register, found by name, date of birth and licence number, and on a new application', async () => {
    const lic = (await ok(council, 'GET', '/api/lms/licences/?q=dana')).results[0];
    await ok(council, 'POST', `/api/lms/licences/${lic.id}/suspend/`, {
      reason: 'Complaint under investigation.',
    });
    const byDob = await ok(council, 'GET', '/api/lms/register/?dob=1985-03-02');
    expect(byDob.results.map((e: { kind: string }) => e.kind)).toEqual(['suspension']);
    const byNumber = await ok(
      council,
      'GET',
      `/api/lms/register/?licence_number=${encodeURIComponent(lic.number.toLowerCase())}`,
    );
    expect(byNumber.results[0]).toMatchObject({ licence_number: lic.number, kind: 'suspension' });
    expect((await ok(council, 'GET', '/api/lms/register/?q=nobody')).count).toBe(0);
    await ok(council, 'POST', `/api/lms/licences/${lic.id}/reinstate/`, { reason: 'Cleared.' });
    // Dana applies again (the free portal): the detail shows her record. She holds this type of
    // licence here, so it is a renewal in substance (HMRC): the code, asked of HMRC at once
    const url = `/api/lms/s/application-portals/${ids.free}/apply/`;
    expect((await ok(dana, 'GET', `/api/lms/s/application-portals/${ids.free}/`)).tax_check).toBe(
      'code',
    );
    const confirmOnly = await call(dana, 'POST', url, { tax_responsibilities_confirmed: true });
    expect(confirmOnly.statusCode).toBe(400);
    expect(confirmOnly.json()).toEqual({ tax_check_code: [TAX_CHECK_CODE_REQUIRED] });
    const expired = await call(dana, 'POST', url, { tax_check_code: 'E00000001' });
    expect(expired.statusCode).toBe(400);
    expect(expired.json()).toEqual({ tax_check_code: [TAX_CHECK_CODE_EXPIRED] });
    const unknown = await call(dana, 'POST', url, { tax_check_code: 'X00000001' });
    expect(unknown.json()).toEqual({ tax_check_code: [TAX_CHECK_CODE_UNKNOWN] });
    const again = await ok(dana, 'POST', url, { tax_check_code: 'HMRC12345' });
    const detail = await ok(council, 'GET', `/api/lms/applications/${again.application_id}/`);
    expect(detail.tax_check).toMatchObject({
      needed: 'code',
      code: 'HMRC12345',
      status: 'confirmed',
    });
    expect(detail.register_matches.map((e: { kind: string }) => e.kind)).toEqual(['suspension']);
    expect(detail.events.map((e: { action: string }) => e.action)).toEqual(['apply']);
  });

  it("a holder's second 'new' application renews their licence, not a second one; a suspended one stops it", async () => {
    const paid = (await ok(council, 'GET', `/api/lms/applications/?portal=${ids.paid}&q=dana`))
      .results[0];
    const before = (await ok(council, 'GET', '/api/lms/licences/?q=dana')).results;
    expect(before).toHaveLength(1);
    const lic = before[0];
    await completeChecks(paid.case_id);
    // suspended meanwhile: 409 telling the officer why, nothing issued or extended
    await ok(council, 'POST', `/api/lms/licences/${lic.id}/suspend/`, { reason: 'Complaint.' });
    const stopped = await call(council, 'POST', `/api/lms/applications/${paid.id}/grant/`, {});
    expect(stopped.statusCode, stopped.body).toBe(409);
    expect(stopped.json()).toEqual({ detail: APPLICATION_MESSAGES.holderSuspended(lic.number) });
    expect((await ok(council, 'GET', `/api/lms/applications/${paid.id}/`)).state).toBe(
      'in_progress',
    );
    await ok(council, 'POST', `/api/lms/licences/${lic.id}/reinstate/`, { reason: 'Cleared.' });
    const granted = await ok(council, 'POST', `/api/lms/applications/${paid.id}/grant/`, {});
    expect(granted).toMatchObject({
      state: 'granted',
      licence_id: lic.id,
      licence_number: lic.number,
      renews_licence: lic.id,
    });
    const after = (await ok(council, 'GET', '/api/lms/licences/?q=dana')).results;
    expect(after).toHaveLength(1);
    const old = new Date(`${lic.expiry_date}T00:00:00Z`);
    old.setUTCFullYear(old.getUTCFullYear() + 3);
    expect(after[0].expiry_date).toBe(old.toISOString().slice(0, 10));
    const mine = await ok(dana, 'GET', `/api/lms/s/applications/${paid.id}/`);
    expect(mine).toMatchObject({ state: 'granted', licence_number: lic.number });
    const trail = await t.owner((tx) =>
      tx
        .select({ changes: auditActions.changes })
        .from(auditActions)
        .where(
          and(
            eq(auditActions.contentType, 'lms_licences.licence'),
            eq(auditActions.objectId, String(lic.id)),
          ),
        ),
    );
    expect(trail.map((a) => a.changes)).toContainEqual({
      expiry_date: [lic.expiry_date, after[0].expiry_date],
      renewal: `APP-${String(paid.id).padStart(6, '0')}`,
    });
  });

  it('the holder sees Renew on the latest granted application of a renewable licence, with an open renewal portal', async () => {
    const lic = (await ok(council, 'GET', '/api/lms/licences/?q=dana')).results[0];
    const renewUrls = async () =>
      new Map(
        (
          (await ok(dana, 'GET', '/api/lms/s/applications/?page_size=100')).results as {
            id: number;
            state: string;
            renew_url: string | null;
          }[]
        )
          .filter((a) => a.state === 'granted')
          .map((a) => [a.id, a.renew_url]),
      );
    const granted = await t.owner((tx) =>
      tx
        .select({ id: lmsApplications.id })
        .from(lmsApplications)
        .where(and(eq(lmsApplications.licenceId, lic.id), eq(lmsApplications.state, 'granted')))
        .orderBy(lmsApplications.id),
    );
    expect(granted).toHaveLength(2);
    const [first, latest] = granted.map((g) => g.id);
    const portal = `/s/application-portals/${ids.renewal}`;
    expect(await renewUrls()).toEqual(
      new Map([
        [first, null],
        [latest, portal],
      ]),
    );
    expect((await ok(dana, 'GET', `/api/lms/s/applications/${latest}/`)).renew_url).toBe(portal);
    // suspended, expired, or no open renewal portal: no Renew
    await ok(council, 'POST', `/api/lms/licences/${lic.id}/suspend/`, { reason: 'Check.' });
    expect((await renewUrls()).get(latest ?? 0)).toBeNull();
    await ok(council, 'POST', `/api/lms/licences/${lic.id}/reinstate/`, { reason: 'Done.' });
    const setExpiry = (expiryDate: string) =>
      t.owner((tx) => tx.update(licences).set({ expiryDate }).where(eq(licences.id, lic.id)));
    await setExpiry('2020-01-01');
    expect((await renewUrls()).get(latest ?? 0)).toBeNull();
    await setExpiry(lic.expiry_date);
    const setOpen = (isOpen: boolean) =>
      t.owner((tx) =>
        tx
          .update(lmsApplicationPortals)
          .set({ isOpen })
          .where(eq(lmsApplicationPortals.id, ids.renewal)),
      );
    await setOpen(false);
    expect((await renewUrls()).get(latest ?? 0)).toBeNull();
    await setOpen(true);
    expect((await renewUrls()).get(latest ?? 0)).toBe(portal);
    // another person's applications carry no Renew of hers
    const sams = (await ok(sam, 'GET', '/api/lms/s/applications/')).results;
    expect(sams.every((a: { renew_url: string | null }) => a.renew_url === null)).toBe(true);
  });
});

describe('the HMRC tax check and renewals', () => {
  it('a renewal needs a licence, and a valid code: missing, malformed, expired or unknown stop it', async () => {
    const url = `/api/lms/s/application-portals/${ids.renewal}/apply/`;
    const noLicence = await call(sam, 'POST', url, { tax_check_code: 'HMRC12345' });
    expect(noLicence.statusCode).toBe(400);
    expect(noLicence.json().non_field_errors[0]).toMatch(/renewal needs an active licence/);
    const missing = await call(dana, 'POST', url, {});
    expect(missing.statusCode).toBe(400);
    expect(missing.json().tax_check_code[0]).toMatch(/tax check code/);
    const malformed = await call(dana, 'POST', url, { tax_check_code: 'ABC' });
    expect(malformed.statusCode).toBe(400);
    expect(malformed.json().tax_check_code[0]).toMatch(/9-character/);
    const expired = await call(dana, 'POST', url, { tax_check_code: 'E00000001' });
    expect(expired.statusCode).toBe(400);
    expect(expired.json().tax_check_code[0]).toMatch(/expired/);
    const unknown = await call(dana, 'POST', url, { tax_check_code: 'X00000001' });
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json().tax_check_code[0]).toMatch(/does not recognise/);
  });

  it('a valid code renews; granting extends the licence from its old expiry', async () => {
    const lic = (await ok(council, 'GET', '/api/lms/licences/?q=dana')).results[0];
    const out = await ok(dana, 'POST', `/api/lms/s/application-portals/${ids.renewal}/apply/`, {
      tax_check_code: 'hmrc 12345',
    });
    expect(out.state).toBe('awaiting_payment');
    const detail = await ok(council, 'GET', `/api/lms/applications/${out.application_id}/`);
    expect(detail).toMatchObject({
      kind: 'renewal',
      renews_licence: lic.id,
      tax_check: { needed: 'code', code: 'HMRC12345', status: 'confirmed' },
    });
    const paid = await ok(
      council,
      'POST',
      `/api/lms/applications/${out.application_id}/record-payment/`,
      {},
    );
    await completeChecks(paid.case_id);
    const granted = await ok(
      council,
      'POST',
      `/api/lms/applications/${out.application_id}/grant/`,
      {},
    );
    expect(granted.licence_id).toBe(lic.id);
    const after = await ok(council, 'GET', `/api/lms/licences/${lic.id}/`);
    const old = new Date(`${lic.expiry_date}T00:00:00Z`);
    old.setUTCFullYear(old.getUTCFullYear() + 3);
    expect(after.expiry_date).toBe(old.toISOString().slice(0, 10));
  });

  it('the council opens a renewal from the licence; the code is needed', async () => {
    const lic = (await ok(council, 'GET', '/api/lms/licences/?q=dana')).results[0];
    const none = await call(council, 'POST', `/api/lms/licences/${lic.id}/renew/`, {});
    expect(none.statusCode).toBe(400);
    expect((await call(viewer, 'POST', `/api/lms/licences/${lic.id}/renew/`, {})).statusCode).toBe(
      403,
    );
    expect(
      (
        await call(otherCouncil, 'POST', `/api/lms/licences/${lic.id}/renew/`, {
          tax_check_code: 'HMRC12345',
        })
      ).statusCode,
    ).toBe(404);
    const res = await call(council, 'POST', `/api/lms/licences/${lic.id}/renew/`, {
      tax_check_code: 'HMRC12345',
    });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json()).toMatchObject({
      kind: 'renewal',
      renews_licence: lic.id,
      state: 'awaiting_payment',
    });

    // a second licence of the same type held by the same person: its renewal is not answered
    // with the first licence's open one (granting that would extend the first, not this)
    const [second] = await t.owner((tx) =>
      tx
        .insert(licences)
        .values({
          customerId: northgate,
          definitionId: lic.definition,
          holderId: lic.holder,
          number: 'HCD/2026/90077',
          status: 'active',
          issueDate: lic.issue_date,
          expiryDate: lic.expiry_date,
        })
        .returning(),
    );
    const other = await call(council, 'POST', `/api/lms/licences/${second?.id}/renew/`, {
      tax_check_code: 'HMRC12345',
    });
    expect(other.statusCode, other.body).toBe(409);
    expect(other.json()).toEqual({ detail: APPLICATION_MESSAGES.renewalOfAnotherOpen });
    // the first licence's renewal again answers its open application
    const again = await call(council, 'POST', `/api/lms/licences/${lic.id}/renew/`, {
      tax_check_code: 'HMRC12345',
    });
    expect(again.statusCode, again.body).toBe(201);
    expect(again.json().id).toBe(res.json().id);
    await t.owner((tx) => tx.delete(licences).where(eq(licences.number, 'HCD/2026/90077')));
  });

  it('the subject withdraws an open application, not a decided one, nor another’s', async () => {
    const open = (await ok(council, 'GET', '/api/lms/applications/?q=dana&state=awaiting_payment'))
      .results[0];
    expect(
      (await call(sam, 'POST', `/api/lms/s/applications/${open.id}/withdraw/`)).statusCode,
    ).toBe(404);
    const out = await ok(dana, 'POST', `/api/lms/s/applications/${open.id}/withdraw/`);
    expect(out).toMatchObject({ state: 'withdrawn', next_url: null });
    const again = await call(dana, 'POST', `/api/lms/s/applications/${open.id}/withdraw/`);
    expect(again.statusCode).toBe(400);
    expect(again.json().non_field_errors[0]).toMatch(/can no longer be withdrawn/);
  });

  it('a licence lapsed within a year, or one of the same type held at another council, needs the code', async () => {
    const today = new Date().toISOString().slice(0, 10);
    const daysAgo = (n: number) => new Date(Date.now() - n * 86_400_000).toISOString().slice(0, 10);
    await t.owner(async (tx) => {
      const lapsed = await createSubjectUser(tx, {
        customerId: northgate,
        email: 'lapsed@example.test',
      });
      await tx.insert(licences).values({
        customerId: northgate,
        definitionId: ids.definition,
        holderId: lapsed.id,
        number: 'HCD/2023/90001',
        status: 'expired',
        issueDate: daysAgo(1195),
        expiryDate: daysAgo(100),
      });
      const longAgo = await createSubjectUser(tx, {
        customerId: northgate,
        email: 'long-ago@example.test',
      });
      await tx.insert(licences).values({
        customerId: northgate,
        definitionId: ids.definition,
        holderId: longAgo.id,
        number: 'HCD/2022/90002',
        status: 'expired',
        issueDate: daysAgo(1600),
        expiryDate: daysAgo(500),
      });
      // a Southby driver's hackney carriage licence (the same sub-group code)
      const [southby] = await tx
        .select({ id: subjects.customerId })
        .from(subjects)
        .where(eq(subjects.email, 'sam@example.test'));
      const other = southby?.id ?? 0;
      const elsewhere = await createSubjectUser(tx, {
        customerId: other,
        email: 'away@example.test',
      });
      const [g] = await tx
        .insert(licenceGroups)
        .values({ customerId: other, name: 'Taxis' })
        .returning();
      const [sg] = await tx
        .insert(licenceSubGroups)
        .values({ customerId: other, groupId: g?.id ?? 0, name: 'HC drivers', code: 'HCD' })
        .returning();
      const [d] = await tx
        .insert(licenceDefinitions)
        .values({
          customerId: other,
          subGroupId: sg?.id ?? 0,
          name: 'HCD',
          durationYears: 1,
          feePence: 0,
        })
        .returning();
      await tx.insert(licences).values({
        customerId: other,
        definitionId: d?.id ?? 0,
        holderId: elsewhere.id,
        number: 'SBY/1',
        issueDate: daysAgo(10),
        expiryDate: today.replace(/^\d{4}/, (y) => String(Number(y) + 1)),
      });
    });
    const need = async (email: string) =>
      (await ok(await login(t.app, email), 'GET', `/api/lms/s/application-portals/${ids.free}/`))
        .tax_check;
    expect(await need('lapsed@example.test')).toBe('code');
    expect(await need('long-ago@example.test')).toBe('confirm');
    expect(await need('away@example.test')).toBe('code');
  });

  it('the same type, not the same definition: a revocation within a year anywhere needs the code; another type does not', async () => {
    const daysAgo = (n: number) => new Date(Date.now() - n * 86_400_000).toISOString().slice(0, 10);
    const inDays = (n: number) => new Date(Date.now() + n * 86_400_000).toISOString().slice(0, 10);
    await t.owner(async (tx) => {
      const [southby] = await tx
        .select({ id: subjects.customerId })
        .from(subjects)
        .where(eq(subjects.email, 'sam@example.test'));
      const other = southby?.id ?? 0;
      const [g] = await tx
        .insert(licenceGroups)
        .values({ customerId: other, name: 'Taxis (2)' })
        .returning();
      const subGroup = async (customerId: number, groupId: number, code: string) => {
        const [sg] = await tx
          .insert(licenceSubGroups)
          .values({ customerId, groupId, name: `Sub-group ${code}`, code })
          .returning();
        const [d] = await tx
          .insert(licenceDefinitions)
          .values({
            customerId,
            subGroupId: sg?.id ?? 0,
            name: `Definition ${code}`,
            durationYears: 1,
            feePence: 0,
          })
          .returning();
        return d?.id ?? 0;
      };
      // revoked at Southby four months ago, though its expiry is still ahead
      const revokedDef = await subGroup(other, g?.id ?? 0, 'HCD');
      const revoked = await createSubjectUser(tx, {
        customerId: other,
        email: 'revoked@example.test',
      });
      await tx.insert(licences).values({
        customerId: other,
        definitionId: revokedDef,
        holderId: revoked.id,
        number: 'SBY/R1',
        status: 'revoked',
        issueDate: daysAgo(300),
        expiryDate: inDays(400),
        statusChangedAt: new Date(Date.now() - 120 * 86_400_000),
      });
      // revoked at Southby two years ago
      const longRevoked = await createSubjectUser(tx, {
        customerId: other,
        email: 'long-revoked@example.test',
      });
      await tx.insert(licences).values({
        customerId: other,
        definitionId: revokedDef,
        holderId: longRevoked.id,
        number: 'SBY/R2',
        status: 'revoked',
        issueDate: daysAgo(900),
        expiryDate: inDays(200),
        statusChangedAt: new Date(Date.now() - 730 * 86_400_000),
      });
      // a vehicle licence (another type) held here: a first driver application
      const [ng] = await tx
        .select({ id: licenceGroups.id })
        .from(licenceGroups)
        .where(eq(licenceGroups.customerId, northgate))
        .limit(1);
      const vehicleDef = await subGroup(northgate, ng?.id ?? 0, 'VEH');
      const vehicle = await createSubjectUser(tx, {
        customerId: northgate,
        email: 'vehicle@example.test',
      });
      await tx.insert(licences).values({
        customerId: northgate,
        definitionId: vehicleDef,
        holderId: vehicle.id,
        number: 'VEH/1',
        issueDate: daysAgo(30),
        expiryDate: inDays(335),
      });
      // another definition of the same sub-group here (a 1-year licence), expired last month
      const [hcd] = await tx
        .select({ subGroupId: licenceDefinitions.subGroupId })
        .from(licenceDefinitions)
        .where(eq(licenceDefinitions.id, ids.definition));
      const [oneYear] = await tx
        .insert(licenceDefinitions)
        .values({
          customerId: northgate,
          subGroupId: hcd?.subGroupId ?? 0,
          name: 'Hackney carriage driver (1 year)',
          durationYears: 1,
          feePence: 0,
        })
        .returning();
      const sibling = await createSubjectUser(tx, {
        customerId: northgate,
        email: 'one-year@example.test',
      });
      await tx.insert(licences).values({
        customerId: northgate,
        definitionId: oneYear?.id ?? 0,
        holderId: sibling.id,
        number: 'HCD/1Y/1',
        status: 'expired',
        issueDate: daysAgo(395),
        expiryDate: daysAgo(30),
      });
    });
    const need = async (email: string) =>
      (await ok(await login(t.app, email), 'GET', `/api/lms/s/application-portals/${ids.free}/`))
        .tax_check;
    expect(await need('revoked@example.test')).toBe('code');
    expect(await need('long-revoked@example.test')).toBe('confirm');
    expect(await need('vehicle@example.test')).toBe('confirm');
    expect(await need('one-year@example.test')).toBe('code');
    // applying follows the same rule: the revoked driver's confirmation alone is refused
    const revoked = await login(t.app, 'revoked@example.test');
    const refused = await call(
      revoked,
      'POST',
      `/api/lms/s/application-portals/${ids.free}/apply/`,
      {
        tax_responsibilities_confirmed: true,
      },
    );
    expect(refused.statusCode).toBe(400);
    expect(refused.json()).toEqual({ tax_check_code: [TAX_CHECK_CODE_REQUIRED] });
  });

  it('a licence held elsewhere needs the code; the council confirms it with HMRC before granting', async () => {
    const url = `/api/lms/s/application-portals/${ids.free}/apply/`;
    // Sam's refused application is closed: a new one, declaring a licence held elsewhere
    const missing = await call(sam, 'POST', url, { holds_licence_elsewhere: true });
    expect(missing.statusCode).toBe(400);
    expect(missing.json()).toHaveProperty('tax_check_code');
    const out = await ok(sam, 'POST', url, {
      holds_licence_elsewhere: true,
      tax_check_code: 'X00000001',
    });
    const detail = await ok(council, 'GET', `/api/lms/applications/${out.application_id}/`);
    expect(detail.tax_check).toMatchObject({ needed: 'code', status: 'not_checked' });
    expect(detail.register_matches.map((e: { kind: string }) => e.kind)).toEqual(['refusal']);
    await completeChecks(detail.case_id);
    const checked = await ok(
      council,
      'POST',
      `/api/lms/applications/${out.application_id}/tax-check/`,
    );
    expect(checked.tax_check).toMatchObject({ status: 'failed' });
    expect(checked.tax_check.checked_at).not.toBeNull();
    const grant = await call(
      council,
      'POST',
      `/api/lms/applications/${out.application_id}/grant/`,
      {},
    );
    expect(grant.statusCode).toBe(400);
    expect(grant.json().non_field_errors[0]).toMatch(/HMRC/);
    expect(
      (await call(viewer, 'POST', `/api/lms/applications/${out.application_id}/tax-check/`))
        .statusCode,
    ).toBe(403);
    // a new applicant who confirmed (a licence lapsed over a year ago) has no code to check
    const firstTime = await ok(
      await login(t.app, 'long-ago@example.test'),
      'POST',
      `/api/lms/s/application-portals/${ids.free}/apply/`,
      { tax_responsibilities_confirmed: true },
    );
    const noCode = await call(
      council,
      'POST',
      `/api/lms/applications/${firstTime.application_id}/tax-check/`,
    );
    expect(noCode.statusCode).toBe(400);
  });
});

// Review 30 (M1, M2): a renewal's grant locks the licence it renews and refuses one suspended or
// ended since the renewal was opened; two grants of one person run one after the other (the
// subject's row is locked first), so the second renews the first's licence instead of a second.
describe('a grant against the licence it renews, and two grants at once', () => {
  const subjectOf = async (email: string) => {
    const [s] = await t.owner((tx) =>
      tx
        .select({ id: subjects.id })
        .from(subjects)
        .where(and(eq(subjects.customerId, northgate), eq(subjects.email, email))),
    );
    return s?.id ?? 0;
  };
  const person = async (first: string) => {
    const email = `${first.toLowerCase()}@example.test`;
    await t.owner((tx) =>
      createSubjectUser(tx, { customerId: northgate, email, firstName: first, lastName: 'Holder' }),
    );
    return { client: await login(t.app, email), subjectId: await subjectOf(email) };
  };

  it('a renewal of a licence suspended, then revoked, since it was opened: 409, the licence unchanged', async () => {
    const cara = await person('Cara');
    const lic = await ok(council, 'POST', '/api/lms/licences/', {
      definition: ids.definition,
      holder: cara.subjectId,
    });
    const out = await ok(
      cara.client,
      'POST',
      `/api/lms/s/application-portals/${ids.renewal}/apply/`,
      {
        tax_check_code: 'HMRC12345',
      },
    );
    const url = `/api/lms/applications/${out.application_id}/`;
    const paid = await ok(council, 'POST', `${url}record-payment/`, {});
    await completeChecks(paid.case_id);
    await ok(council, 'POST', `/api/lms/licences/${lic.id}/suspend/`, { reason: 'Complaint.' });
    const suspended = await call(council, 'POST', `${url}grant/`, {});
    expect(suspended.statusCode, suspended.body).toBe(409);
    expect(suspended.json()).toEqual({ detail: APPLICATION_MESSAGES.holderSuspended(lic.number) });
    await ok(council, 'POST', `/api/lms/licences/${lic.id}/revoke/`, { reason: 'Upheld.' });
    const revoked = await call(council, 'POST', `${url}grant/`, {});
    expect(revoked.statusCode, revoked.body).toBe(409);
    expect(revoked.json()).toEqual({
      detail: APPLICATION_MESSAGES.renewedLicenceEnded(lic.number, 'revoked'),
    });
    expect((await ok(council, 'GET', url)).state).toBe('in_progress');
    expect(await ok(council, 'GET', `/api/lms/licences/${lic.id}/`)).toMatchObject({
      status: 'revoked',
      expiry_date: lic.expiry_date,
    });
  });

  it.skipIf(!process.env.DATABASE_URL)(
    'two grants of one person at once (PostgreSQL): one licence, the second grant renews it',
    async () => {
      const milo = await person('Milo');
      const free = await ok(
        milo.client,
        'POST',
        `/api/lms/s/application-portals/${ids.free}/apply/`,
        {
          tax_responsibilities_confirmed: true,
        },
      );
      const fee = await ok(
        milo.client,
        'POST',
        `/api/lms/s/application-portals/${ids.paid}/apply/`,
        {
          tax_responsibilities_confirmed: true,
        },
      );
      const a = await ok(council, 'GET', `/api/lms/applications/${free.application_id}/`);
      const b = await ok(
        council,
        'POST',
        `/api/lms/applications/${fee.application_id}/record-payment/`,
        {},
      );
      await completeChecks(a.case_id);
      await completeChecks(b.case_id);
      // the council's licence numbering lock, held on another connection: both grants get as far
      // as issuing before either can, which is where two licences used to come from
      let release = () => {};
      const gate = new Promise<void>((resolve) => {
        release = resolve;
      });
      let taken = () => {};
      const held = new Promise<void>((resolve) => {
        taken = resolve;
      });
      const holding = t.owner(async (tx) => {
        await tx.execute(sql`select pg_advisory_xact_lock(hashtext('licences'), ${northgate})`);
        taken();
        await gate;
      });
      await held;
      const grants = [a.id, b.id].map((id) =>
        call(council, 'POST', `/api/lms/applications/${id}/grant/`, {}),
      );
      try {
        await new Promise((r) => setTimeout(r, 1500));
      } finally {
        release();
        await holding;
      }
      const answers = await Promise.all(grants);
      for (const res of answers) expect(res.statusCode, res.body).toBe(200);
      const held2 = await t.owner((tx) =>
        tx.select({ id: licences.id }).from(licences).where(eq(licences.holderId, milo.subjectId)),
      );
      expect(held2).toHaveLength(1);
      const granted = answers.map((r) => r.json());
      expect(granted.map((g) => g.licence_id)).toEqual([held2[0]?.id, held2[0]?.id]);
      expect(granted.filter((g) => g.renews_licence === held2[0]?.id)).toHaveLength(1);
    },
  );
});
