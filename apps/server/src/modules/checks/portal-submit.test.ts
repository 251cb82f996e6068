import type { ActivityConfig, DbsResultData, PaymentPortalOut } from '@kestrel/domain';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  type Client,
  DBS_PROVIDER_CONFIGURATION,
  ManualClock,
  type TestApp,
} from '../../../test/helpers.js';
import { kindsWorld } from '../../../test/kinds.js';
import { DisclosureSimulator } from '../../providers/dbs-basic/simulator.js';
import { TEST_CARDS } from '../../providers/payments/simulator.js';
import { multipart, pngFile } from '../case-documents/test-files.js';
import { checkEngine } from './providers.js';

/*
 * Issue 17, end to end through the API: the subject fills the portal and submits it (POST
 * /api/s/case-portal/{case}/submit/, no hook mocked), the check engine starts the check from the
 * queue, staff verify and countersign a standard or enhanced application, the provider's signed
 * callback completes it, and the result is what GET /api/case-activities/{id}/ answers (and the
 * subject's own restricted view).
 */

const DAY = 24 * 60 * 60 * 1000;
/** The providers' clock, moved over simulated days (the app's stays: sessions stay valid). */
const days = new ManualClock(new Date());
const world = kindsWorld({ providerClock: days });
const { call } = world;
let t: TestApp;
let admin: Client;
let ops: Client;
beforeAll(() => {
  ({ t, admin, ops } = world);
});

/** A subject with a login and an open case asking for basic details and the check `code`. */
const subjectWithCase = (code: string, config: ActivityConfig) =>
  world.subjectCase({ requirements: ['basic-details', { code, config }], activityAt: 1 });

/** The subject's portal: basic details, current address, each section, then Review & Submit. */
async function fillAndSubmit(
  subject: Client,
  caseId: number,
  code: string,
  surname: string,
): Promise<void> {
  const basic = await call(subject, 'PUT', `/api/s/case-basic-details/${caseId}/`, {
    gender: 'female',
    title: 'Ms',
    forename: 'Ada',
    surname,
    dob: '1985-12-10',
    phone_number: '07911 123456',
    nin: 'ab 12 34 56 c',
    nationality: 'GBR',
  });
  expect(basic.statusCode, basic.body).toBe(200);
  const address = await call(subject, 'POST', '/api/s/case-addresses/', {
    case: caseId,
    country: 'GBR',
    line_one: '1 High Street',
    town: 'Leeds',
    postcode: 'LS1 4AP',
    from_date: '2015-01-01',
    current: true,
  });
  expect(address.statusCode, address.body).toBe(201);
  if (code !== 'dbs-basic') await showDocuments(subject, caseId);
  const submitted = await world.submitPortal(subject, caseId, ['welcome', 'basic-details', code]);
  expect(submitted.json().portal).toMatchObject({ submitted: true, state: 'in-progress' });
}

const activity = (id: number) => world.activity<DbsResultData>(id);

/**
 * The subject's identity documents, uploaded in the portal's document collection before they
 * submit (a passport, a bank statement and a utility bill: Route 1), and the way they will show
 * them (in person, today).
 */
async function showDocuments(subject: Client, caseId: number) {
  for (const type of ['passport', 'bank-statement', 'utility-bill']) {
    const { payload, contentType } = multipart([
      { name: 'case', value: String(caseId) },
      { name: 'document_type', value: type },
      { name: 'collector', value: 'identity' },
      { name: 'file', value: await pngFile(), filename: `${type}.png`, contentType: 'image/png' },
    ]);
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/s/case-documents/',
      headers: { ...subject.headers, 'content-type': contentType },
      payload,
    });
    expect(res.statusCode, res.body).toBe(201);
  }
  const chosen = await call(subject, 'PATCH', `/api/s/case-dbs-details/${caseId}/`, {
    idv_option: 'in-person',
    in_person_expected_date: isoDay(days.now().getTime()),
  });
  expect(chosen.statusCode, chosen.body).toBe(200);
}

/**
 * Staff verify the identity against the documents the subject gave (Route 1, recorded on the
 * details and the documents) and countersign: the application may go.
 */
async function verifyAndCountersign(caseId: number) {
  const url = `/api/case-dbs-details/${caseId}/`;
  const before = await call(admin, 'GET', url);
  expect(before.json().identity_check).toMatchObject({
    level: 'standard-enhanced',
    basis: 'documents',
    met: true,
    route: 1,
  });
  const verified = await call(admin, 'POST', `${url}verify/`, {});
  expect(verified.statusCode, verified.body).toBe(200);
  expect(verified.json()).toMatchObject({ state: 'verified', identity_route: 1 });
  const docs = await call(admin, 'GET', `/api/case-documents/?case=${caseId}`);
  expect(docs.json().results.map((d: { route_index: number | null }) => d.route_index)).toEqual([
    1, 1, 1,
  ]);
  const signed = await call(admin, 'POST', `${url}countersign/`, {});
  expect(signed.statusCode, signed.body).toBe(200);
  await t.settle();
}

/** Posts the provider simulator's signed callback of the application as it stands now. */
async function providerCallback(provider: 'dbs-basic' | 'ebulk', id: number, reference: string) {
  const sim = checkEngine(t.app.deps).providers.get(provider);
  if (!(sim instanceof DisclosureSimulator)) throw new Error('not the simulator');
  const cb = sim.callbackFor(reference);
  const res = await t.app.inject({
    method: 'POST',
    url: `/callbacks/checks/${provider}/${id}/`,
    headers: cb.headers,
    payload: cb.body,
  });
  expect(res.statusCode, res.body).toBe(200);
  await t.settle();
}

const isoDay = (ms: number) => new Date(ms).toISOString().slice(0, 10);

describe('the subject submits the portal; the check runs to its result', () => {
  it.each<{
    code: string;
    provider: 'dbs-basic' | 'ebulk';
    surname: string;
    config: ActivityConfig;
    outcome: string;
    reference: RegExp;
    /** Days after submission the certificate is printed (provider README). */
    complete: number;
    lists: { list: 'adult' | 'child'; result: 'match' | 'no-match' }[];
  }>([
    {
      code: 'dbs-basic',
      provider: 'dbs-basic',
      surname: 'Smith',
      config: {},
      outcome: 'clear',
      reference: /^BD-CBn-/,
      complete: 2,
      lists: [],
    },
    {
      code: 'dbs-standard',
      provider: 'ebulk',
      surname: 'Records',
      config: {},
      outcome: 'records-held',
      reference: /^EB-RSn-/,
      complete: 3,
      lists: [],
    },
    {
      code: 'dbs-enhanced',
      provider: 'ebulk',
      surname: 'Barred',
      config: { workforce: 'C', child_barred_list: true, adult_barred_list: true },
      outcome: 'barred-list-match',
      reference: /^EB-BEc-/,
      complete: 7,
      lists: [{ list: 'child', result: 'match' }],
    },
  ])('$code: $surname, submitted by the subject, ends $outcome', async (c) => {
    const k = await subjectWithCase(c.code, c.config);
    const enhanced = c.code === 'dbs-enhanced';
    if (enhanced) {
      // operations configure the registered body's contacts before the start
      const configured = await call(
        ops,
        'PATCH',
        `/api/ops/case-activities/${k.activityId}/processing-data/`,
        { provider_configuration: DBS_PROVIDER_CONFIGURATION },
      );
      expect(configured.statusCode, configured.body).toBe(200);
    }
    await fillAndSubmit(k.subject, k.caseId, c.code, c.surname);
    // the start is a job, run once the submit committed (the queue drained here)
    await t.settle();
    if (c.provider === 'ebulk') {
      // a standard or enhanced application waits for verification and countersigning
      const waiting = await activity(k.activityId);
      expect(waiting.state).toBe('ca-awaiting-agent');
      expect(waiting.processing_data.reference).toBeNull();
      await verifyAndCountersign(k.caseId);
    }
    const started = await activity(k.activityId);
    expect(started.state).toBe('ca-in-progress');
    const ref = started.processing_data.reference ?? '';
    expect(ref).toMatch(c.reference);
    // the application carries what the subject entered in the portal
    const request = started.processing_data.events.find((e) => e.type === 'request');
    expect(request?.body).toMatchObject({
      idempotency_key: `kestrel-ca-${k.activityId}`,
      applicant: { surname: c.surname },
      callback_url: expect.stringMatching(
        new RegExp(`/callbacks/checks/${c.provider}/${k.activityId}/$`),
      ),
    });
    // the configuration went with the application, and stays with the engine's data
    expect(request?.body?.provider_configuration).toEqual(
      enhanced ? DBS_PROVIDER_CONFIGURATION : null,
    );
    expect(started.processing_data.provider_configuration).toEqual(
      enhanced ? DBS_PROVIDER_CONFIGURATION : undefined,
    );
    // a standard or enhanced application carries the identity check and its countersignature
    expect(request?.body?.identity_verification).toEqual(
      c.provider === 'ebulk'
        ? {
            basis: 'documents',
            route: 1,
            verified_by: expect.any(String),
            verified_at: expect.any(String),
            countersigned_by: expect.any(String),
            countersigned_at: expect.any(String),
          }
        : null,
    );
    const t0 = days.now().getTime();
    days.advance(c.complete * DAY);
    await providerCallback(c.provider, k.activityId, ref);
    const done = await activity(k.activityId);
    expect(done.state).toBe('ca-complete');
    expect(done.result_data.application).toMatchObject({
      status: 'Complete',
      reference: ref,
      received_date: isoDay(t0),
      certificate_printed_date: isoDay(t0 + c.complete * DAY),
    });
    expect(done.result_data.disclosure).toEqual({
      status: c.outcome,
      certificate_number: expect.stringMatching(/^\d{12}$/),
      issue_date: isoDay(t0 + c.complete * DAY),
      manual_certificate: false,
    });
    expect(done.result_data.barred_lists).toEqual(
      c.lists.map((l) => ({ ...l, searched: true, search_date: isoDay(t0 + 2 * DAY) })),
    );
    // the subject sees the result too (without who verified or countersigned)
    const own = await call(k.subject, 'GET', `/api/s/case-activities/${k.activityId}/result/`);
    expect(own.statusCode).toBe(200);
    expect(own.json()).toMatchObject({
      state: 'ca-complete',
      result_data: { disclosure: { status: c.outcome } },
    });
    const mine = await call(k.subject, 'GET', `/api/s/cases/${k.caseId}/`);
    expect(mine.json().case_activities[1]).toMatchObject({
      id: k.activityId,
      state: 'ca-complete',
    });
  });

  it('a provider top-up: the subject is asked to pay it, pays, and the check completes', async () => {
    const k = await subjectWithCase('dbs-basic', {});
    await fillAndSubmit(k.subject, k.caseId, 'dbs-basic', 'Topup');
    await t.settle();
    const waiting = await activity(k.activityId);
    expect(waiting.state).toBe('ca-awaiting-subject');
    const intent = waiting.processing_data.top_up?.payment_intent;
    expect(intent).toMatch(/^pit_/);
    // the subject's case says what to do next: pay, through the payment link
    const mine = (await call(k.subject, 'GET', `/api/s/cases/${k.caseId}/`)).json();
    expect(mine).toMatchObject({
      state: 'awaiting-subject',
      submitted: true,
      needs: ['Pay the top-up'],
      next_step: { label: 'Pay the top-up', payment_intent: intent },
    });
    const page = await t.app.inject({
      method: 'GET',
      url: `/api/public/payment-portal/${intent}/`,
      headers: { host: 'localhost' },
    });
    expect(page.statusCode).toBe(200);
    const p = page.json() as PaymentPortalOut;
    expect(p.amount_pence).toBe(1500);
    const paid = await t.app.inject({
      method: 'POST',
      url: `${p.api_base}/v1/payment_intents/${p.provider_intent_id}/confirm`,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: new URLSearchParams({
        key: p.publishable_key,
        client_secret: p.client_secret ?? '',
        'payment_method_data[card][number]': TEST_CARDS.success,
        return_url: `/payment-portal/${p.id}`,
      }).toString(),
    });
    expect(paid.json().status).toBe('succeeded');
    await t.settle();
    const going = await activity(k.activityId);
    expect(going.state).toBe('ca-in-progress');
    const ref = going.processing_data.reference ?? '';
    expect(ref).toMatch(/^BD-CBn-/);
    days.advance(2 * DAY);
    await providerCallback('dbs-basic', k.activityId, ref);
    const done = await activity(k.activityId);
    expect(done.state).toBe('ca-complete');
    expect(done.result_data.disclosure?.status).toBe('clear');
    expect(done.result_data.top_up).toEqual({ status: 'paid', amount: 1500, payment_id: intent });
    const after = (await call(k.subject, 'GET', `/api/s/cases/${k.caseId}/`)).json();
    expect(after).toMatchObject({ needs: [], next_step: null });
  });
});
