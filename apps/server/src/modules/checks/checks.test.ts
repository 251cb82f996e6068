// @postgres: the check engine on the job queue: activities locked by jobs, polls, retries, top-ups

import type {
  ActivityConfig,
  DbsResultData,
  DbsUpdateResultData,
  PaymentPortalOut,
} from '@kestrel/domain';
import { IDENTITY_CHECK_MESSAGES, TOP_UP_DEMANDED_AGAIN } from '@kestrel/domain';
import { and, eq, inArray, sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  type Client,
  createCase,
  createProcess,
  ManualClock,
  type TestApp,
} from '../../../test/helpers.js';
import { type ActivityOut, kindsWorld } from '../../../test/kinds.js';
import { jobActor } from '../../jobs/service-job.js';
import { queueJobs } from '../../platform/jobs.js';
import { runInTenant } from '../../platform/service-context.js';
import { signWebhook } from '../../platform/webhooks.js';
import { DisclosureSimulator } from '../../providers/dbs-basic/simulator.js';
import { TEST_CARDS } from '../../providers/payments/simulator.js';
import { caseActivities } from '../activities/activities.table.js';
import {
  createCaseAddress,
  createCaseBasicDetails,
  createCaseBirthDetails,
} from '../case-data/case-data.factories.js';
import { caseDbsUpdateDetails } from '../case-data/case-data.table.js';
import { cases } from '../cases/cases.table.js';
import { createCaseOnlineIdv } from '../online-idv/online-idv.factories.js';
import { paymentIntents } from '../payments/payments.table.js';
import { subjects } from '../subjects/subjects.table.js';
import { checkCallbackInbox } from './callbacks.table.js';
import { applyApplicationUpdate } from './disclosure/kind.js';
import { initiateActivity, lockActivity, pollActivity } from './engine.js';
import { activitiesSubmitted } from './hooks.js';
import { checkEngine } from './providers.js';
import { settleTopUp } from './top-up.js';

const DAY = 24 * 60 * 60 * 1000;
// The providers' own clock moves over simulated days; the app's stays (sessions stay valid).
const days = new ManualClock(new Date());
// Short timeouts so a provider that never answers fails fast.
const world = kindsWorld({ viewer: true, providerClock: days, engine: { providerTimeoutMs: 300 } });
let t: TestApp;
let acme: number;
let admin: Client;
let viewer: Client;
let ops: Client;
beforeAll(() => {
  ({ t, acme, admin, viewer, ops } = world);
});

/**
 * A case whose one activity is `code`, its subject named `surname` (with an email for the DBS, a
 * place of birth and a current address), waiting for the subject.
 */
async function openCase(code: string, surname: string, config: ActivityConfig = {}) {
  return t.owner(async (tx) => {
    const p = await createProcess(tx, { customerId: acme, requirements: [{ code, config }] });
    const c = await createCase(tx, { customerId: acme, processId: p.id });
    const key = { customerId: acme, caseId: c.id };
    await createCaseBasicDetails(
      tx,
      key,
      {
        forename: 'Ada',
        surname,
        dob: '1990-01-01',
      },
      { emailDbs: 'ada.dbs@example.test' },
    );
    await createCaseBirthDetails(tx, key);
    await createCaseAddress(tx, key, { current: true });
    const [a] = await tx.select().from(caseActivities).where(eq(caseActivities.caseId, c.id));
    if (!a) throw new Error('no activity');
    return { caseId: c.id, activityId: a.id };
  });
}

/** The subject's submit: the portal calls activitiesSubmitted in its transaction. */
const submit = (k: { caseId: number; activityId: number }) => world.submitActivities(k);

type Out = ActivityOut<DbsResultData & DbsUpdateResultData> & {
  /** (A started activity's reference is a string.) */
  processing_data: { reference: string };
};
const activity = async (id: number) =>
  (await world.activity<DbsResultData & DbsUpdateResultData>(id)) as Out;

async function caseState(id: number) {
  const res = await t.app.inject({
    method: 'GET',
    url: `/api/cases/${id}/`,
    headers: admin.headers,
  });
  return String(res.json().state);
}

const simulator = (name: 'dbs-basic' | 'ebulk') => {
  const p = checkEngine(t.app.deps).providers.get(name);
  if (!(p instanceof DisclosureSimulator)) throw new Error('not the simulator');
  return p;
};

/**
 * The applicant details an application of openCase's subject carries into its result (the
 * factories' basic details, place of birth and current address; no gender, nothing else).
 */
const applicantOf = (surname: string) => ({
  title: 'Ms',
  forename: 'Ada',
  middlename: null,
  surname,
  dob: '1990-01-01',
  email: 'ada.dbs@example.test',
  phone_number: '07911 123456',
  // masked: the NI number is stored encrypted with the case's basic details only (issue 34)
  nin: '•••••456C',
  nationality: 'GBR',
  birth_town: 'Leeds',
  birth_country: 'GBR',
  current_address: '1 High Street, Leeds, LS1 4AP',
});

/** Posts the simulator's callback of the application now. */
async function callback(
  name: 'dbs-basic' | 'ebulk',
  activityId: number,
  reference: string,
  eventId?: string,
) {
  const cb = simulator(name).callbackFor(reference, eventId);
  const res = await t.app.inject({
    method: 'POST',
    url: `/callbacks/checks/${name}/${activityId}/`,
    headers: cb.headers,
    payload: cb.body,
  });
  await t.settle(); // the inbox's job applies it
  return res;
}

/** The case's online identity check passed (what its provider's callback stores). */
const identityPassed = (caseId: number) =>
  t.owner((tx) => createCaseOnlineIdv(tx, { customerId: acme, caseId }));

/** Staff record the identity route, verify it, then countersign (the DBS details' actions). */
async function verifyAndCountersign(caseId: number) {
  const url = `/api/case-dbs-details/${caseId}/`;
  const send = (method: 'PATCH' | 'POST', path: string, payload: object) =>
    t.app.inject({ method, url: `${url}${path}`, headers: admin.headers, payload });
  expect((await send('PATCH', '', { idv_option: 'online' })).statusCode).toBe(200);
  const countersignFirst = await send('POST', 'countersign/', {});
  expect(countersignFirst.statusCode).toBe(400);
  // online: verified only once the case's online identity check passed
  const unproven = await send('POST', 'verify/', {});
  expect(unproven.statusCode).toBe(400);
  expect(unproven.json().identity_check).toEqual([IDENTITY_CHECK_MESSAGES.onlineNotPassed]);
  await identityPassed(caseId);
  expect((await activity(await onlyActivity(caseId))).state).toBe('ca-awaiting-agent');
  expect((await send('POST', 'verify/', {})).statusCode).toBe(200);
  await t.settle();
  // verified, not yet countersigned: still waiting
  expect((await activity(await onlyActivity(caseId))).state).toBe('ca-awaiting-agent');
  const signed = await send('POST', 'countersign/', {});
  expect(signed.statusCode).toBe(200);
  expect(signed.json()).toMatchObject({ state: 'countersigned' });
  await t.settle();
}

/** verifyAndCountersign without its checks of the waiting on the way (the tables' shortcut). */
async function countersign(caseId: number) {
  await identityPassed(caseId);
  const url = `/api/case-dbs-details/${caseId}/`;
  for (const [method, path, payload] of [
    ['PATCH', '', { idv_option: 'online' }],
    ['POST', 'verify/', {}],
    ['POST', 'countersign/', {}],
  ] as const) {
    const res = await t.app.inject({
      method,
      url: `${url}${path}`,
      headers: admin.headers,
      payload,
    });
    expect(res.statusCode, res.body).toBe(200);
  }
  await t.settle();
}

async function onlyActivity(caseId: number) {
  const [a] = await t.owner((tx) =>
    tx.select().from(caseActivities).where(eq(caseActivities.caseId, caseId)),
  );
  return a?.id ?? 0;
}

/*
 * The criminal-record family, level by level, from submission to every terminal outcome through
 * the API: the provider's stages driven by the simulator's clock, its callbacks posted to the
 * callback endpoint, the poll job and the start's retries run from the queue, top-ups paid or
 * declined through the payment portal (the payments simulator and its webhook).
 */

interface Level {
  code: 'dbs-basic' | 'dbs-standard' | 'dbs-enhanced';
  provider: 'dbs-basic' | 'ebulk';
  config: ActivityConfig;
  /** The simulator reference's level letter and barred lists ('n': none). */
  refLevel: string;
  /** The barred lists searched, in the order the result lists them. */
  lists: ('adult' | 'child')[];
  /** [stage number, days after submission it completes] (provider README), in order. */
  stages: [number, number][];
  /** Days after submission the certificate is assembled and despatched (provider README). */
  certificate: { assembled: number; despatched: number };
}

const LEVELS: Level[] = [
  {
    code: 'dbs-basic',
    provider: 'dbs-basic',
    config: {},
    refLevel: 'Bn',
    lists: [],
    stages: [
      [1, 0],
      [2, 1],
      [5, 2],
    ],
    certificate: { assembled: 1, despatched: 2 },
  },
  {
    code: 'dbs-standard',
    provider: 'ebulk',
    config: {},
    refLevel: 'Sn',
    lists: [],
    stages: [
      [1, 0],
      [2, 1],
      [5, 3],
    ],
    certificate: { assembled: 2, despatched: 3 },
  },
  {
    code: 'dbs-enhanced',
    provider: 'ebulk',
    config: { workforce: 'CA', adult_barred_list: true, child_barred_list: true },
    refLevel: 'Eac',
    lists: ['adult', 'child'],
    stages: [
      [1, 0],
      [2, 1],
      [3, 2],
      [4, 5],
      [5, 7],
    ],
    certificate: { assembled: 6, despatched: 7 },
  },
];

const STAGE_NAMES: Record<number, string> = {
  1: 'Application received and validated',
  2: 'Police National Computer searched',
  3: 'Barred lists searched',
  4: 'Local police records checked',
  5: 'Certificate printed',
};

const OUTCOME_LETTER = {
  clear: 'C',
  'records-held': 'R',
  'barred-list-match': 'B',
  cancelled: 'X',
};
type Outcome = keyof typeof OUTCOME_LETTER;

const isoDay = (ms: number) => new Date(ms).toISOString().slice(0, 10);
const completeDay = (level: Level) => level.stages.at(-1)?.[1] ?? 0;
const PAPER: ActivityConfig = {
  paper_cert: true,
  paper_cert_name: 'Ada Smith',
  paper_cert_line_one: '1 High Street',
  paper_cert_town: 'Leeds',
  paper_cert_postcode: 'LS1 1AA',
};

/** Submits the case; a standard or enhanced one is then verified and countersigned by staff. */
async function submitLevel(level: Level, k: { caseId: number; activityId: number }) {
  await submit(k);
  if (level.provider !== 'ebulk') return;
  // not sent to the DBS before its identity is verified and a countersignatory countersigns
  const waiting = await activity(k.activityId);
  expect(waiting.state).toBe('ca-awaiting-agent');
  expect(waiting.processing_data.events).toEqual([]);
  await countersign(k.caseId);
}

/**
 * The activity is in progress with the provider, which took the application now (the provider's
 * clock): its reference names the outcome and level. Returns the reference and that moment.
 */
async function expectSubmitted(
  level: Level,
  k: { caseId: number; activityId: number },
  outcome: Outcome,
) {
  const a = await activity(k.activityId);
  expect(a.state).toBe('ca-in-progress');
  expect(await caseState(k.caseId)).toBe('in-progress');
  const ref = a.processing_data.reference;
  const prefix = level.provider === 'ebulk' ? 'EB' : 'BD';
  expect(ref).toMatch(new RegExp(`^${prefix}-${OUTCOME_LETTER[outcome]}${level.refLevel}-`));
  expect(a.processing_data.last_error).toBeNull();
  const t0 = days.now().getTime();
  expect(a.result_data.application).toMatchObject({
    status: 'In progress',
    reference: ref,
    received_date: isoDay(t0),
  });
  expect(a.result_data.disclosure).toBeNull();
  return { ref, t0 };
}

/** Moves the provider's clock to `day` days after `t0` and posts its callback of that moment. */
async function callbackOnDay(
  level: Level,
  k: { activityId: number },
  s: { ref: string; t0: number },
  day: number,
) {
  days.set(new Date(s.t0 + day * DAY));
  const res = await callback(level.provider, k.activityId, s.ref);
  expect(res.statusCode).toBe(200);
  expect(res.json()).toEqual({ status: 'stored' });
  return activity(k.activityId);
}

/** Runs the engine's delayed jobs `name` of the activity now (the queue's clock is real time). */
async function runDelayed(name: string, activityId: number) {
  const made = await t.owner((tx) =>
    tx
      .update(queueJobs)
      .set({ startAfter: sql`now() - interval '1 second'` })
      .where(
        and(
          eq(queueJobs.name, name),
          inArray(queueJobs.state, ['created', 'retry']),
          sql`(${queueJobs.data}->>'case_activity_id')::int = ${activityId}`,
        ),
      )
      .returning({ id: queueJobs.id }),
  );
  expect(made.length).toBeGreaterThan(0);
  await t.settle();
}

/** The result of an application the provider completed with `status` (its certificate). */
function expectCertificate(
  level: Level,
  a: Awaited<ReturnType<typeof activity>>,
  status: Exclude<Outcome, 'cancelled'>,
  t0: number,
  manual = false,
) {
  const issued = isoDay(t0 + completeDay(level) * DAY);
  expect(a.state).toBe('ca-complete');
  expect(a.result_data.application).toMatchObject({
    status: 'Complete',
    reference: a.processing_data.reference,
    e_number: level.provider === 'ebulk' ? expect.stringMatching(/^E\d{9}$/) : null,
    received_date: isoDay(t0),
    police_computer_search_date: isoDay(t0 + DAY),
    barred_list_search_date: level.lists.length > 0 ? isoDay(t0 + 2 * DAY) : null,
    certificate_assembled_date: isoDay(t0 + level.certificate.assembled * DAY),
    certificate_despatched_date: isoDay(t0 + level.certificate.despatched * DAY),
    certificate_printed_date: issued,
    records_held_date: status === 'records-held' ? issued : null,
  });
  expect(a.result_data.disclosure).toEqual({
    status,
    certificate_number: expect.stringMatching(/^\d{12}$/),
    issue_date: issued,
    manual_certificate: manual,
  });
  expect(a.result_data.tracking).toEqual(
    level.stages.map(([stage, day]) => ({
      stage: STAGE_NAMES[stage],
      status: 'Complete',
      completed_date: isoDay(t0 + day * DAY),
    })),
  );
  expect(a.result_data.barred_lists).toEqual(
    level.lists.map((list, i) => ({
      list,
      searched: true,
      search_date: isoDay(t0 + 2 * DAY),
      result: status === 'barred-list-match' && i === 0 ? 'match' : 'no-match',
    })),
  );
}

/** Pays (or fails to pay) the activity's awaited top-up through the payment portal. */
async function payTopUp(activityId: number, card: string) {
  const waiting = await activity(activityId);
  const publicId = waiting.processing_data.top_up?.payment_intent;
  expect(publicId).toMatch(/^pit_/);
  const page = () =>
    t.app.inject({
      method: 'GET',
      url: `/api/public/payment-portal/${publicId}/`,
      headers: { host: 'localhost' },
    });
  const opened = await page();
  expect(opened.statusCode).toBe(200);
  const p = opened.json() as PaymentPortalOut;
  expect(p.outcome).toBe('awaiting');
  await t.app.inject({
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
  await t.settle();
  expect((await page()).json().outcome).toBe(card === TEST_CARDS.success ? 'paid' : 'declined');
  return String(publicId);
}

describe.each(LEVELS.map((l) => [l.code, l] as const))(
  '%s from submission to every outcome',
  (_code, level) => {
    const open = (surname: string, config: ActivityConfig = {}) =>
      openCase(level.code, surname, { ...level.config, ...config });

    it('clear: stage by stage by callback, then complete with its certificate', async () => {
      const k = await open('Smith');
      await submitLevel(level, k);
      const s = await expectSubmitted(level, k, 'clear');
      const submitted = await activity(k.activityId);
      expect(submitted.processing_data.events.map((e) => e.type)).toEqual(['request', 'answer']);
      // the applicant details, recorded as the provider took the application
      expect(submitted.result_data.applicant).toEqual(applicantOf('Smith'));
      // no plain copy of the NI number in the stored activity (result and provider log)
      const [stored] = await t.owner((tx) =>
        tx.execute<{ row: string }>(
          sql`select (result_data::text || processing_data::text) as row
            from case_activities where id = ${k.activityId}`,
        ),
      );
      expect(stored?.row).toContain('456C');
      expect(stored?.row).not.toContain('AB123456C');
      expect(submitted.result_data.application).toMatchObject({
        certificate_assembled_date: null,
        certificate_despatched_date: null,
      });
      // the certificate's dates as they happen (the day before printing, and the printing day)
      const dateBy = (day: number, due: number) => (due <= day ? isoDay(s.t0 + due * DAY) : null);
      const callbackDays = [
        ...new Set([...level.stages.map(([, d]) => d), level.certificate.assembled]),
      ].sort((x, y) => x - y);
      for (const day of callbackDays) {
        if (day === 0) continue;
        const a = await callbackOnDay(level, k, s, day);
        const last = day === completeDay(level);
        expect(a.state).toBe(last ? 'ca-complete' : 'ca-in-progress');
        // the stages due by then are complete, the others pending
        expect(a.result_data.tracking?.map((x) => x.status)).toEqual(
          level.stages.map(([, due]) => (due <= day ? 'Complete' : 'Pending')),
        );
        expect(a.result_data.application).toMatchObject({
          certificate_assembled_date: dateBy(day, level.certificate.assembled),
          certificate_despatched_date: dateBy(day, level.certificate.despatched),
        });
      }
      const done = await activity(k.activityId);
      expectCertificate(level, done, 'clear', s.t0);
      expect(done.result_data.applicant).toEqual(applicantOf('Smith'));
      expect(done.processing_data.events.filter((e) => e.type === 'callback')).toHaveLength(
        callbackDays.length - 1,
      );
      expect(await caseState(k.caseId)).toBe('pending-case-decision');
    });

    it('records held, found by the poll job', async () => {
      const k = await open('Records');
      await submitLevel(level, k);
      const s = await expectSubmitted(level, k, 'records-held');
      days.set(new Date(s.t0 + completeDay(level) * DAY));
      await runDelayed('checks-poll', k.activityId);
      const done = await activity(k.activityId);
      expectCertificate(level, done, 'records-held', s.t0);
      expect(done.processing_data.events.at(-1)?.type).toBe('poll');
      expect(await caseState(k.caseId)).toBe('pending-case-decision');
    });

    const barred: Exclude<Outcome, 'cancelled'> =
      level.lists.length > 0 ? 'barred-list-match' : 'clear';
    it(`a BARRED applicant: ${barred}${level.lists.length > 0 ? '' : ' (no barred list is searched at this level)'}`, async () => {
      const k = await open('Barred');
      await submitLevel(level, k);
      const s = await expectSubmitted(level, k, barred);
      const done = await callbackOnDay(level, k, s, completeDay(level));
      expectCertificate(level, done, barred, s.t0);
      expect(await caseState(k.caseId)).toBe('pending-case-decision');
    });

    it('cancelled by the provider a day after submission', async () => {
      const k = await open('Cancel');
      await submitLevel(level, k);
      const s = await expectSubmitted(level, k, 'cancelled');
      const a = await callbackOnDay(level, k, s, 1);
      expect(a.state).toBe('ca-cancelled');
      expect(a.result_data.application).toMatchObject({ status: 'Cancelled', reference: s.ref });
      expect(a.result_data.disclosure).toBeNull();
      expect(a.result_data.tracking?.map((x) => x.status)).toEqual(
        level.stages.map(([stage]) => (stage === 1 ? 'Complete' : 'Pending')),
      );
      expect(await caseState(k.caseId)).toBe('cancelled');
      // a later callback is kept on the activity, its outcome unchanged
      const later = await callbackOnDay(level, k, s, completeDay(level));
      expect(later.state).toBe('ca-cancelled');
      expect(later.result_data).toEqual(a.result_data);
    });

    it('a provider error, retried automatically (the queued retry), then complete', async () => {
      const k = await open('Flaky');
      await submitLevel(level, k);
      const failed = await activity(k.activityId);
      expect(failed.state).toBe('ca-error-initiating');
      expect(failed.processing_data).toMatchObject({
        attempts: 1,
        last_error: 'Service unavailable (503).',
        reference: null,
      });
      expect(failed.processing_data.events.map((e) => e.type)).toEqual(['request', 'error']);
      expect(await caseState(k.caseId)).toBe('in-progress');
      await runDelayed('checks-initiate', k.activityId);
      const s = await expectSubmitted(level, k, 'clear');
      const done = await callbackOnDay(level, k, s, completeDay(level));
      expectCertificate(level, done, 'clear', s.t0);
      expect(await caseState(k.caseId)).toBe('pending-case-decision');
    });

    it('a provider error, retried by operations, then complete', async () => {
      const k = await open('Flaky');
      await submitLevel(level, k);
      expect((await activity(k.activityId)).state).toBe('ca-error-initiating');
      const retried = await t.app.inject({
        method: 'POST',
        url: `/api/ops/case-activities/${k.activityId}/retry/`,
        headers: ops.headers,
        payload: { reason: 'Provider back' },
      });
      expect(retried.statusCode, retried.body).toBe(200);
      await t.settle();
      const s = await expectSubmitted(level, k, 'clear');
      expect((await activity(k.activityId)).processing_data.events.map((e) => e.type)).toEqual([
        'request',
        'error',
        'retry',
        'request',
        'answer',
      ]);
      // the automatic retry still queued finds it started: it sends nothing again
      await runDelayed('checks-initiate', k.activityId);
      expect((await activity(k.activityId)).processing_data.events).toHaveLength(5);
      const done = await callbackOnDay(level, k, s, completeDay(level));
      expectCertificate(level, done, 'clear', s.t0);
    });

    it('the provider demands a top-up; paid, the application goes on to complete', async () => {
      const k = await open('Topup');
      await submitLevel(level, k);
      const waiting = await activity(k.activityId);
      expect(waiting.state).toBe('ca-awaiting-subject');
      expect(waiting.processing_data.reference).toBeNull();
      expect(waiting.processing_data.top_up).toMatchObject({
        amount_pence: 1500,
        reason: 'Provider surcharge',
        status: 'awaiting',
      });
      expect(waiting.result_data.application?.status).toBe('Awaiting top-up payment');
      expect(await caseState(k.caseId)).toBe('awaiting-subject');
      const paid = await payTopUp(k.activityId, TEST_CARDS.success);
      const s = await expectSubmitted(level, k, 'clear');
      const going = await activity(k.activityId);
      expect(going.processing_data.top_up).toMatchObject({ status: 'paid', payment_intent: paid });
      expect(going.processing_data.idempotency_key).toBe(`kestrel-ca-${k.activityId}-paid-${paid}`);
      const done = await callbackOnDay(level, k, s, completeDay(level));
      expectCertificate(level, done, 'clear', s.t0);
      expect(done.result_data.top_up).toEqual({ status: 'paid', amount: 1500, payment_id: paid });
      expect(await caseState(k.caseId)).toBe('pending-case-decision');
    });

    it('the provider demands a top-up; declined, the customer decides (cancels)', async () => {
      const k = await open('Topup');
      await submitLevel(level, k);
      expect((await activity(k.activityId)).state).toBe('ca-awaiting-subject');
      const declined = await payTopUp(k.activityId, TEST_CARDS.declined);
      const a = await activity(k.activityId);
      expect(a.state).toBe('ca-pending-activity-decision');
      expect(a.processing_data.top_up).toMatchObject({
        status: 'declined',
        payment_intent: declined,
      });
      expect(a.processing_data.reference).toBeNull();
      expect(a.result_data.top_up).toEqual({
        status: 'declined',
        amount: 1500,
        payment_id: declined,
      });
      expect(await caseState(k.caseId)).toBe('in-progress');
      const decided = await t.app.inject({
        method: 'PATCH',
        url: `/api/case-activities/${k.activityId}/`,
        headers: admin.headers,
        payload: { state: 'ca-cancelled' },
      });
      expect(decided.statusCode, decided.body).toBe(200);
      expect((await activity(k.activityId)).state).toBe('ca-cancelled');
      expect(await caseState(k.caseId)).toBe('cancelled');
    });

    it('the price list demands a top-up (paper certificate); paid, then on to complete', async () => {
      const k = await open('Smith', PAPER);
      await submit(k);
      const waiting = await activity(k.activityId);
      // the payment first: nothing goes to the provider (nor waits for countersigning) before it
      expect(waiting.state).toBe('ca-awaiting-subject');
      expect(waiting.processing_data.top_up).toMatchObject({
        amount_pence: 350,
        reason: 'Paper certificate by post',
        status: 'awaiting',
      });
      // the price list's demand, then the payment provider's intent (a job): no check provider
      expect(
        waiting.processing_data.events.map((e) => [e.type, 'payment_provider' in e.body]),
      ).toEqual([
        ['top-up', false],
        ['top-up', true],
      ]);
      const paid = await payTopUp(k.activityId, TEST_CARDS.success);
      if (level.provider === 'ebulk') {
        // paid, a standard or enhanced application then waits for countersigning
        expect((await activity(k.activityId)).state).toBe('ca-awaiting-agent');
        await countersign(k.caseId);
      }
      const s = await expectSubmitted(level, k, 'clear');
      const done = await callbackOnDay(level, k, s, completeDay(level));
      expectCertificate(level, done, 'clear', s.t0);
      expect(done.result_data.top_up).toEqual({ status: 'paid', amount: 350, payment_id: paid });
      expect(await caseState(k.caseId)).toBe('pending-case-decision');
    });

    if (level.provider === 'ebulk') {
      it('countersigned while its top-up is unpaid: it waits for the payment, then goes on', async () => {
        const k = await open('Records', PAPER);
        await submit(k);
        await countersign(k.caseId);
        const waiting = await activity(k.activityId);
        expect(waiting.state).toBe('ca-awaiting-subject');
        expect(waiting.processing_data.reference).toBeNull();
        await payTopUp(k.activityId, TEST_CARDS.success);
        const s = await expectSubmitted(level, k, 'records-held');
        const done = await callbackOnDay(level, k, s, completeDay(level));
        expectCertificate(level, done, 'records-held', s.t0);
      });
    }
  },
);

describe('a manual certificate', () => {
  it('a MANUAL applicant: clear, its certificate a manual one (GET /api/case-activities/{id}/)', async () => {
    const level = LEVELS.find((l) => l.code === 'dbs-enhanced');
    if (!level) throw new Error('no enhanced level');
    const k = await openCase(level.code, 'Manual', level.config);
    await submitLevel(level, k);
    const started = await activity(k.activityId);
    expect(started.state).toBe('ca-in-progress');
    const ref = started.processing_data.reference;
    expect(ref).toMatch(/^EB-CEacm-/); // clear, enhanced, both lists, manual
    expect(started.result_data.applicant).toEqual(applicantOf('Manual'));
    const t0 = days.now().getTime();
    const done = await callbackOnDay(level, k, { ref, t0 }, completeDay(level));
    expectCertificate(level, done, 'clear', t0, true);
    expect(done.result_data.disclosure?.manual_certificate).toBe(true);
    expect(done.result_data.applicant).toEqual(applicantOf('Manual'));
    expect(await caseState(k.caseId)).toBe('pending-case-decision');
  });
});

describe('an enhanced check (e-bulk, barred lists per workforce)', () => {
  it('barred-list match on the adults list', async () => {
    const k = await openCase('dbs-enhanced', 'Barred', {
      workforce: 'A',
      adult_barred_list: true,
      child_barred_list: true,
    });
    await submit(k);
    // not sent to the DBS before its identity is verified and a countersignatory countersigns
    const waiting = await activity(k.activityId);
    expect(waiting.state).toBe('ca-awaiting-agent');
    expect(waiting.processing_data.reference).toBeNull();
    expect(waiting.processing_data.events).toEqual([]);
    await verifyAndCountersign(k.caseId);
    const ref = (await activity(k.activityId)).processing_data.reference;
    expect(ref).toMatch(/^EB-BEa-/); // only the adults list: the workforce is adult
    days.advance(7 * DAY);
    await callback('ebulk', k.activityId, ref);
    const done = await activity(k.activityId);
    expect(done.state).toBe('ca-complete');
    expect(done.result_data.disclosure?.status).toBe('barred-list-match');
    expect(done.result_data.barred_lists).toEqual([
      expect.objectContaining({ list: 'adult', result: 'match', searched: true }),
    ]);
    expect(done.result_data.application?.e_number).toMatch(/^E\d{9}$/);
  });
});

describe('callbacks', () => {
  it('refuses unsigned, wrongly signed, stale and malformed callbacks, changing nothing', async () => {
    const k = await openCase('dbs-basic', 'Smith');
    await submit(k);
    const before = await activity(k.activityId);
    const ref = before.processing_data.reference;
    days.advance(2 * DAY);
    const cb = simulator('dbs-basic').callbackFor(ref, 'evt-x');
    const url = `/callbacks/checks/dbs-basic/${k.activityId}/`;
    const post = (headers: Record<string, string>, payload: string) =>
      t.app.inject({ method: 'POST', url, headers, payload });
    expect((await post({ 'content-type': 'application/json' }, cb.body)).statusCode).toBe(401);
    expect(
      (
        await post(
          {
            ...cb.headers,
            // its last hex digit changed (to a different one: '0' would keep a signature ending in 0)
            'x-kestrel-signature':
              cb.headers['x-kestrel-signature']?.replace(/.$/, (d) => (d === '0' ? '1' : '0')) ??
              '',
          },
          cb.body,
        )
      ).statusCode,
    ).toBe(401);
    expect((await post(cb.headers, cb.body.replace('complete', 'cancelled'))).statusCode).toBe(401);
    t.clock.advance(10 * 60 * 1000);
    expect((await post(cb.headers, cb.body)).statusCode).toBe(401); // replayed after 5 minutes
    t.clock.advance(-10 * 60 * 1000);
    // Signed but malformed: a 400 with the field that is wrong.
    const secrets = checkEngine(t.app.deps).config;
    const sign = (secret: string, body: string) => ({
      'content-type': 'application/json',
      'x-kestrel-signature': signWebhook(secret, Math.floor(t.clock.now().getTime() / 1000), body),
    });
    const body = JSON.stringify({ event_id: 'evt-y', reference: ref, status: 'done' });
    const malformed = await post(sign(secrets.providers['dbs-basic'].callbackSecret, body), body);
    expect(malformed.statusCode).toBe(400);
    expect(malformed.json()).toHaveProperty('status');
    expect(
      (await post(sign(secrets.providers['dbs-basic'].callbackSecret, '{'), '{')).statusCode,
    ).toBe(400);
    // Another provider's path, another application's reference, no such activity: refused.
    const wrongPath = await t.app.inject({
      method: 'POST',
      url: `/callbacks/checks/ebulk/${k.activityId}/`,
      headers: sign(secrets.providers.ebulk.callbackSecret, cb.body),
      payload: cb.body,
    });
    // Stored (never lost), then rejected by the job: another provider's, another application's.
    expect(wrongPath.json()).toEqual({ status: 'stored' });
    const otherRef = cb.body
      .replace(ref, `${ref.slice(0, -1)}${ref.endsWith('9') ? '8' : '9'}`)
      .replace('"evt-x"', '"evt-other-ref"');
    const other = await post(
      sign(secrets.providers['dbs-basic'].callbackSecret, otherRef),
      otherRef,
    );
    expect(other.json()).toEqual({ status: 'stored' });
    await t.settle();
    const kept = await t.owner((tx) =>
      tx
        .select()
        .from(checkCallbackInbox)
        .where(eq(checkCallbackInbox.caseActivityId, k.activityId)),
    );
    expect(kept.map((r) => [r.provider, r.eventId, r.outcome, r.error])).toEqual([
      ['ebulk', 'evt-x', 'rejected', 'Not an activity of this provider in progress.'],
      ['dbs-basic', 'evt-other-ref', 'rejected', 'The callback names another application.'],
    ]);
    const missing = await t.app.inject({
      method: 'POST',
      url: '/callbacks/checks/dbs-basic/999999/',
      headers: cb.headers,
      payload: cb.body,
    });
    expect(missing.statusCode).toBe(404);
    const after = await activity(k.activityId);
    expect(after.state).toBe('ca-in-progress');
    expect(after.result_data).toEqual(before.result_data);
    // the callback of another application is on the provider log, marked refused, and nothing
    // else changed (not its reference, stage or event ids: a corrected resend still applies)
    const logged = after.processing_data.events.slice(before.processing_data.events.length);
    expect(logged).toEqual([
      expect.objectContaining({
        type: 'callback',
        // what identifies it only: another application's result is not copied into this log
        body: {
          rejected: 'The callback names another application.',
          event_id: 'evt-other-ref',
          reference: JSON.parse(otherRef).reference,
          status: JSON.parse(otherRef).status,
        },
      }),
    ]);
    expect({ ...after.processing_data, events: before.processing_data.events }).toEqual(
      before.processing_data,
    );
  });

  it('polls answering the same are one counted entry of the log, read back from the database', async () => {
    const k = await openCase('dbs-basic', 'Smith');
    await submit(k);
    const before = (await activity(k.activityId)).processing_data.events.length;
    const job = { case_activity_id: k.activityId, customer_id: acme };
    // the provider's clock stays: each poll answers the same (stored as jsonb in between)
    for (let i = 0; i < 3; i++) await pollActivity(t.app.deps, job);
    const after = await activity(k.activityId);
    const polls = after.processing_data.events.slice(before);
    expect(polls).toEqual([expect.objectContaining({ type: 'poll', repeats: 3 })]);
    expect(after.state).toBe('ca-in-progress');
  });

  it('a top-up asked for again after one was paid is not charged again: a person decides', async () => {
    const k = await openCase('dbs-basic', 'Topup');
    await submit(k);
    const paid = await payTopUp(k.activityId, TEST_CARDS.success);
    const going = await activity(k.activityId);
    expect(going.state).toBe('ca-in-progress');
    const reference = going.processing_data.reference ?? '';
    // the provider (a real one: the simulator takes any paid payment) demands another
    await runInTenant(t.app.deps, jobActor(acme), async (ctx) => {
      const a = await lockActivity(ctx.tx, k.activityId);
      if (!a?.processing) throw new Error('not started');
      const now = await simulator('dbs-basic').status(reference, AbortSignal.timeout(1000));
      await applyApplicationUpdate(ctx, a, a.processing, {
        ...now,
        status: 'top-up-required',
        top_up: { amount_pence: 900, reason: 'Second surcharge' },
      });
    });
    await t.settle();
    const decided = await activity(k.activityId);
    expect(decided.state).toBe('ca-pending-activity-decision');
    expect(decided.processing_data.top_up).toMatchObject({ status: 'paid', payment_intent: paid });
    expect(decided.processing_data.last_error).toBe(TOP_UP_DEMANDED_AGAIN);
    expect(decided.result_data.top_up).toEqual({ status: 'paid', amount: 1500, payment_id: paid });
    expect(decided.result_data.application?.status).toBe('In progress');
    // no second payment asked of the subject
    const intents = await t.owner((tx) =>
      tx.select().from(paymentIntents).where(eq(paymentIntents.caseActivityId, k.activityId)),
    );
    expect(intents).toHaveLength(1);
  });

  it('applies an event once: a replay of the same event id is ignored', async () => {
    const k = await openCase('dbs-basic', 'Smith');
    await submit(k);
    const ref = (await activity(k.activityId)).processing_data.reference;
    days.advance(DAY);
    expect((await callback('dbs-basic', k.activityId, ref, 'evt-1')).json()).toEqual({
      status: 'stored',
    });
    const once = await activity(k.activityId);
    expect((await callback('dbs-basic', k.activityId, ref, 'evt-1')).json()).toEqual({
      status: 'duplicate',
    });
    expect((await activity(k.activityId)).processing_data).toEqual(once.processing_data);
    expect(once.processing_data.event_ids).toEqual(['evt-1']);
  });
});

describe('a provider that fails or does not answer', () => {
  it('error-initiating; operations retry it (not the customer), and only while in error', async () => {
    const k = await openCase('dbs-basic', 'Flaky');
    await submit(k);
    const failed = await activity(k.activityId);
    expect(failed.state).toBe('ca-error-initiating');
    expect(failed.processing_data).toMatchObject({
      attempts: 1,
      last_error: 'Service unavailable (503).',
    });
    // Customers cannot retry; operations can.
    const url = `/api/ops/case-activities/${k.activityId}/retry/`;
    expect((await t.app.inject({ method: 'POST', url, headers: admin.headers })).statusCode).toBe(
      403,
    );
    expect((await t.app.inject({ method: 'POST', url, headers: viewer.headers })).statusCode).toBe(
      403,
    );
    const bad = await t.app.inject({
      method: 'POST',
      url,
      headers: ops.headers,
      payload: { reason: 5 },
    });
    expect(bad.statusCode).toBe(400);
    expect(Object.keys(bad.json())).toEqual(['reason']);
    expect((await activity(k.activityId)).state).toBe('ca-error-initiating');
    const retried = await t.app.inject({
      method: 'POST',
      url,
      headers: ops.headers,
      payload: { reason: 'Provider back' },
    });
    expect(retried.statusCode, retried.body).toBe(200);
    expect(retried.json()).toMatchObject({ state: 'ca-in-progress' });
    await t.settle();
    const ok = await activity(k.activityId);
    expect(ok.state).toBe('ca-in-progress');
    expect(ok.processing_data.reference).toMatch(/^BD-/);
    // Only an activity in error can be retried.
    const again = await t.app.inject({ method: 'POST', url, headers: ops.headers });
    expect(again.statusCode).toBe(400);
    expect(again.json()).toEqual({
      state: ['Only an activity whose start failed can be retried.'],
    });
    expect(
      (
        await t.app.inject({
          method: 'POST',
          url: '/api/ops/case-activities/999999/retry/',
          headers: ops.headers,
        })
      ).statusCode,
    ).toBe(404);
  });

  it('retries a failed start automatically with back-off, up to the attempts allowed', async () => {
    const k = await openCase('dbs-basic', 'Error');
    await submit(k);
    const job = { case_activity_id: k.activityId, customer_id: acme };
    const queued = () =>
      t.owner(async (tx) => {
        const rows = await tx
          .select({ data: queueJobs.data, startAfter: queueJobs.startAfter })
          .from(queueJobs)
          .where(and(eq(queueJobs.name, 'checks-initiate'), eq(queueJobs.state, 'created')));
        return rows.filter(
          (r) =>
            (r.data as { case_activity_id?: number }).case_activity_id === k.activityId &&
            r.startAfter.getTime() > Date.now() + 20_000,
        ).length;
      });
    expect(await queued()).toBe(1); // the next attempt waits 30 s
    // What the delayed jobs do when they run: each failure recorded, until attempts run out.
    for (let i = 2; i <= 5; i++) await initiateActivity(t.app.deps, job);
    const failed = await activity(k.activityId);
    expect(failed.state).toBe('ca-error-initiating');
    expect(failed.processing_data.attempts).toBe(5);
    expect(failed.processing_data.events.filter((e) => e.type === 'error')).toHaveLength(5);
    expect(await queued()).toBe(4); // no sixth: operations retry it now
  });

  it('a timeout is an error too', async () => {
    const k = await openCase('dbs-basic', 'Timeout');
    await submit(k);
    const failed = await activity(k.activityId);
    expect(failed.state).toBe('ca-error-initiating');
    expect(failed.processing_data.last_error).toBe('The provider did not answer in time.');
    expect(await caseState(k.caseId)).toBe('in-progress');
  });
});

describe('settling a top-up (the payments webhook calls settleTopUp)', () => {
  it('paid once, it is submitted; the same settlement again changes nothing, another is a 409', async () => {
    const k = await openCase('dbs-basic', 'Smith', PAPER);
    await submit(k);
    const waiting = await activity(k.activityId);
    expect(waiting.state).toBe('ca-awaiting-subject');
    expect(waiting.processing_data.top_up).toEqual({
      amount_pence: 350,
      reason: 'Paper certificate by post',
      status: 'awaiting',
      // its payment link, made by the payments job once the demand committed
      payment_intent: expect.stringMatching(/^pit_/),
    });
    expect(waiting.result_data.top_up).toEqual({
      status: 'awaiting',
      amount: 350,
      payment_id: waiting.processing_data.top_up?.payment_intent,
    });
    expect(await caseState(k.caseId)).toBe('awaiting-subject');
    await runInTenant(t.app.deps, jobActor(acme), (ctx) =>
      settleTopUp(ctx, k.activityId, 'paid', 'pi_123'),
    );
    await t.settle();
    const paid = await activity(k.activityId);
    expect(paid.state).toBe('ca-in-progress');
    expect(paid.processing_data.top_up).toMatchObject({ status: 'paid', payment_intent: 'pi_123' });
    expect(paid.processing_data.reference).toMatch(/^BD-/);
    // The same webhook again changes nothing; another settlement is refused.
    await runInTenant(t.app.deps, jobActor(acme), (ctx) =>
      settleTopUp(ctx, k.activityId, 'paid', 'pi_123'),
    );
    await expect(
      runInTenant(t.app.deps, jobActor(acme), (ctx) =>
        settleTopUp(ctx, k.activityId, 'declined', 'pi_9'),
      ),
    ).rejects.toMatchObject({ statusCode: 409 });
  });
});

describe('the update service check', () => {
  async function updateCase(certificate: string) {
    const k = await openCase('dbs-update', 'Smith');
    await t.owner((tx) =>
      tx.insert(caseDbsUpdateDetails).values({
        customerId: acme,
        caseId: k.caseId,
        certificateNumber: certificate,
        surname: 'Smith',
        dob: '1990-01-01',
      }),
    );
    await submit(k);
    return k;
  }

  it.each([
    ['200000000001', 'BLANK_NO_NEW_INFO', 'ca-complete'],
    ['300000000001', 'NON_BLANK_NO_NEW_INFO', 'ca-complete'],
    ['400000000001', 'NEW_INFO', 'ca-complete'],
    ['100000000001', 'NO_MATCH_FOUND', 'ca-complete'],
    ['500000000001', 'UNDER_REVIEW', 'ca-pending-activity-decision'],
  ])('certificate %s: %s', async (certificate, status, state) => {
    const k = await updateCase(certificate);
    const a = await activity(k.activityId);
    expect(a.state).toBe(state);
    expect(a.result_data).toMatchObject({
      certificate_status: status,
      certificate_number: certificate,
    });
  });

  it("shows its status on the case's criminal-record checks (their 'update service status')", async () => {
    const k = await t.owner(async (tx) => {
      const p = await createProcess(tx, {
        customerId: acme,
        requirements: [
          { code: 'dbs-basic', config: {} },
          { code: 'dbs-update', config: {} },
        ],
      });
      const c = await createCase(tx, { customerId: acme, processId: p.id });
      await createCaseBasicDetails(
        tx,
        { customerId: acme, caseId: c.id },
        { forename: 'Ada', surname: 'Smith', dob: '1990-01-01' },
      );
      await tx.insert(caseDbsUpdateDetails).values({
        customerId: acme,
        caseId: c.id,
        certificateNumber: '200000000001',
        surname: 'Smith',
        dob: '1990-01-01',
      });
      const acts = await tx
        .select()
        .from(caseActivities)
        .where(eq(caseActivities.caseId, c.id))
        .orderBy(caseActivities.position);
      return { caseId: c.id, ids: acts.map((a) => a.id) };
    });
    await runInTenant(t.app.deps, jobActor(acme), (ctx) =>
      activitiesSubmitted(ctx, k.caseId, k.ids),
    );
    await t.settle();
    const [basic, update] = await Promise.all(k.ids.map((id) => activity(id)));
    expect(update?.result_data.certificate_status).toBe('BLANK_NO_NEW_INFO');
    expect(basic?.result_data.update_service).toEqual({
      certificate_status: 'BLANK_NO_NEW_INFO',
      checked_date: expect.stringMatching(/^\d{4}-\d{2}-\d{2}$/),
    });
    // the basic check's own progress keeps it
    expect(basic?.result_data.application?.reference).toMatch(/^BD-/);
  });

  it('a server error is error-initiating', async () => {
    const k = await updateCase('900000000001');
    expect((await activity(k.activityId)).state).toBe('ca-error-initiating');
  });

  it('a server error, then its automatic retry answers: complete', async () => {
    const k = await updateCase('800000000001');
    const failed = await activity(k.activityId);
    expect(failed.state).toBe('ca-error-initiating');
    expect(failed.processing_data.last_error).toBe('The update service answered 503.');
    await runDelayed('checks-initiate', k.activityId);
    const a = await activity(k.activityId);
    expect(a.state).toBe('ca-complete');
    expect(a.result_data).toMatchObject({
      certificate_status: 'BLANK_NO_NEW_INFO',
      certificate_number: '800000000001',
    });
  });

  it('without update details it cannot start', async () => {
    const k = await openCase('dbs-update', 'Smith');
    await submit(k);
    const a = await activity(k.activityId);
    expect(a.state).toBe('ca-error-initiating');
    expect(a.processing_data.last_error).toBe('The case data the check needs is missing.');
  });
});

describe('activitiesSubmitted', () => {
  it("in the subject's own transaction, starts them by a job once it commits", async () => {
    const k = await openCase('dbs-basic', 'Smith');
    const [subject] = await t.owner((tx) =>
      tx
        .select({ userId: subjects.userId })
        .from(cases)
        .innerJoin(subjects, eq(subjects.id, cases.subjectId))
        .where(eq(cases.id, k.caseId)),
    );
    const subjectActor = {
      ...jobActor(acme),
      type: 'SubjectUser' as const,
      id: subject?.userId ?? null,
      name: 'subject',
    };
    await runInTenant(t.app.deps, subjectActor, (ctx) =>
      activitiesSubmitted(ctx, k.caseId, [k.activityId]),
    );
    await t.settle();
    const a = await activity(k.activityId);
    expect(a.state).toBe('ca-in-progress');
    expect(a.processing_data.reference).toMatch(/^BD-/);
  });

  it('leaves kinds it does not run alone, and rolls back with its caller', async () => {
    const k = await openCase('adult-first', 'Smith');
    await submit(k);
    expect((await activity(k.activityId)).state).toBe('ca-awaiting-subject');
    const d = await openCase('dbs-basic', 'Smith');
    await expect(
      runInTenant(t.app.deps, jobActor(acme), async (ctx) => {
        await activitiesSubmitted(ctx, d.caseId, [d.activityId]);
        throw new Error('the portal failed');
      }),
    ).rejects.toThrow('the portal failed');
    await t.settle();
    const a = await activity(d.activityId);
    expect(a.state).toBe('ca-awaiting-subject');
    expect(a.processing_data).toEqual({});
    const [c] = await t.owner((tx) => tx.select().from(cases).where(eq(cases.id, d.caseId)));
    expect(c?.state).toBe('awaiting-subject');
  });
});
