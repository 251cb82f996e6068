import {
  type DriverDataResultData,
  type LicenceCheckResultData,
  processingDataSchema,
} from '@kestrel/domain';
import { eq, sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { type Client, ManualClock, type TestApp } from '../../../../test/helpers.js';
import { kindsWorld } from '../../../../test/kinds.js';
import { caseActivities } from '../../activities/activities.table.js';
import {
  createCaseBasicDetails,
  createCaseDrivingLicence,
} from '../../case-data/case-data.factories.js';
import { fieldCipher } from '../../encryption/field-cipher.js';
import { sweepAllFieldKeys } from '../../encryption/field-keys-job.js';
import { maskIdentifier } from '../../encryption/mask.js';
import { flags } from '../../flags/flags.table.js';
import { initiateActivity, pollActivity } from '../engine.js';
import { licenceCheckRechecksJob, RECHECK_FLAG_MESSAGE } from '../licence-check/jobs.js';
import { driverDataSuppressedJob } from './kind.js';

/*
 * The driving licence kinds end to end through the API (issue 27): the subject gives the
 * licence and the DVLA mandate in the portal and submits; driver data asks the DVLA simulator
 * and a licence check registers with the licence-checking simulator, polled to its end; each
 * special answer (ENQ018, ENQ037 then released, AwaitingCheck, DQ3, EmailUnconfirmed and the
 * Davis email confirmation, NotFound), a provider error then the retry, 429s that never reach
 * the activity, and the scheduled re-check that raises a flag.
 */

const DAY = 24 * 60 * 60 * 1000;
const providerDays = new ManualClock(new Date());
const world = kindsWorld({ providerClock: providerDays });
const { call } = world;
let t: TestApp;
let acme: number;
let admin: Client;
let ops: Client;
beforeAll(() => {
  ({ t, acme, admin, ops } = world);
});

type Kind = 'driver-data' | 'licence-check';

/**
 * A subject whose licence number fits `surname` (its first five letters choose the simulators'
 * answer), with an open case of `kind`, who gives the DVLA mandate and submits from the portal.
 */
async function submitted(kind: Kind, surname: string, config: Record<string, unknown> = {}) {
  const person = { forename: 'Ada', surname, dob: '1976-03-11', gender: 'female' as const };
  let number = '';
  const k = await world.subjectCase({
    requirements: [{ code: kind, config }],
    subject: { firstName: 'Ada', lastName: surname },
    prepare: async (tx, key) => {
      await createCaseBasicDetails(tx, key, person);
      const licence = await createCaseDrivingLicence(tx, key, person, new Date());
      if (!licence?.number) throw new Error('no licence');
      number = licence.number;
    },
  });
  const consent = await call(k.subject, 'POST', '/api/s/consents/', {
    case: k.caseId,
    case_activity: k.activityId,
    kind: 'driver-data',
  });
  expect(consent.statusCode, consent.body).toBe(201);
  await world.submitPortal(k.subject, k.caseId, ['driver-data']);
  return { ...k, number };
}

const driverData = (id: number) => world.activity<DriverDataResultData>(id);
const licenceCheck = (id: number) => world.activity<LicenceCheckResultData>(id);
const job = (id: number) => ({ case_activity_id: id, customer_id: acme });
const today = () => new Date().toISOString().slice(0, 10);

/** The activity's stored result and provider log (raw SQL, as a database reader sees them). */
const stored = async (id: number) =>
  t.owner(async (tx) => {
    const [row] = await tx.execute<{ t: string }>(
      sql`select result_data::text || processing_data::text as t from case_activities
        where id = ${id}`,
    );
    return row?.t ?? '';
  });

describe('driver data', () => {
  it('completes with the record, CPCs, DQCs and tacho cards when configured; the number is not logged', async () => {
    const k = await submitted('driver-data', 'Morgan', { include_cpc: true, include_tacho: true });
    const a = await driverData(k.activityId);
    expect(a.state).toBe('ca-complete');
    expect(a.result_data).toMatchObject({
      enquiry_code: null,
      mandate_date: today(),
      checked_date: today(),
      include_cpc: true,
      include_tacho: true,
      // Ada is a woman: her number carries the month + 50, and the DVLA reads her as one
      driver: { last_name: 'MORGA', date_of_birth: '1976-03-11', gender: 'Female' },
      licence: { type: 'Full', status: 'Valid' },
      token: { issue_number: '17' },
      endorsements: [],
      tests: [{ category: 'B', status: 'Passed' }],
    });
    expect(a.result_data.entitlements?.map((e) => e.category)).toEqual(['B', 'AM', 'A']);
    expect(a.result_data.cpcs).toHaveLength(1);
    expect(a.result_data.dqcs).toHaveLength(1);
    expect(a.result_data.tacho_cards).toHaveLength(1);
    const request = a.processing_data.events.find((e) => e.type === 'request');
    expect(request?.body).toEqual({
      includeCPC: true,
      includeTacho: true,
      acceptPartialResponse: false,
    });
    // the subject's own view of the result
    const own = await call(k.subject, 'GET', `/api/s/case-activities/${k.activityId}/result/`);
    expect(own.json().result_data.licence.status).toBe('Valid');
    // the DVLA's answer is logged with the number masked: no plain copy in the stored rows
    const answer = a.processing_data.events.find((e) => e.type === 'answer');
    expect(answer?.body).toMatchObject({
      found: true,
      record: { driver: { drivingLicenceNumber: maskIdentifier(k.number) } },
    });
    const raw = await stored(k.activityId);
    expect(raw).not.toContain(k.number);
    expect(raw).toContain(maskIdentifier(k.number));
  });

  it('leaves CPCs and tacho cards out unless asked; computes each removal date', async () => {
    const k = await submitted('driver-data', 'Endorsed');
    const a = await driverData(k.activityId);
    expect(a.state).toBe('ca-complete');
    expect(a.result_data.cpcs ?? null).toBeNull();
    expect(a.result_data.tacho_cards ?? null).toBeNull();
    const byCode = new Map(a.result_data.endorsements?.map((e) => [e.offence_code, e]));
    const sp30 = byCode.get('SP30');
    // 4 years from the offence date
    expect(sp30?.removal_date).toBe(
      `${Number(sp30?.offence_date?.slice(0, 4)) + 4}${sp30?.offence_date?.slice(4)}`,
    );
    expect(byCode.get('ZZ99')?.removal_date).toBeTruthy();
    expect(byCode.get('CU80')?.conviction_date ?? null).toBeNull();
  });

  it('no driver record (ENQ018): left for a decision, with the mandate date', async () => {
    const k = await submitted('driver-data', 'Norecord');
    const a = await driverData(k.activityId);
    expect(a.state).toBe('ca-pending-activity-decision');
    expect(a.result_data).toMatchObject({ enquiry_code: 'ENQ018', mandate_date: today() });
  });

  it('a suppressed record (ENQ037) stays in progress, asked again daily until released', async () => {
    const k = await submitted('driver-data', 'Suppressed');
    let a = await driverData(k.activityId);
    expect(a.state).toBe('ca-in-progress');
    expect(a.result_data).toMatchObject({ enquiry_code: 'ENQ037', suppressed_since: today() });
    // the next day: still suppressed
    await driverDataSuppressedJob.handle({}, t.app.deps);
    await t.settle();
    a = await driverData(k.activityId);
    expect(a.result_data.enquiry_code).toBe('ENQ037');
    // two simulated days on: released
    providerDays.advance(2 * DAY);
    await driverDataSuppressedJob.handle({}, t.app.deps);
    await t.settle();
    a = await driverData(k.activityId);
    expect(a.state).toBe('ca-complete');
    expect(a.result_data.enquiry_code).toBeNull();
    expect(a.result_data.licence?.status).toBe('Valid');
  });

  it('a 429 never reaches the activity: waited out, then the record', async () => {
    const k = await submitted('driver-data', 'Ratelimit');
    const a = await driverData(k.activityId);
    expect(a.state).toBe('ca-complete');
    expect(a.processing_data.events.map((e) => e.type)).toEqual(['request', 'answer']);
    expect(a.processing_data.attempts).toBe(0);
  });

  it('a provider error is retried: error initiating, then complete', async () => {
    const k = await submitted('driver-data', 'Failonce');
    let a = await driverData(k.activityId);
    expect(a.state).toBe('ca-error-initiating');
    expect(a.processing_data).toMatchObject({ attempts: 1, last_error: 'The DVLA answered 503.' });
    // the engine's retry (its job, due after its back-off)
    await initiateActivity(t.app.deps, job(k.activityId));
    a = await driverData(k.activityId);
    expect(a.state).toBe('ca-complete');
    // a refusal is not retried
    const refused = await submitted('driver-data', 'Badrq');
    const r = await driverData(refused.activityId);
    expect(r.state).toBe('ca-error-initiating');
    expect(r.processing_data.events.at(-1)?.body).toMatchObject({ retryable: false, status: 400 });
  });
});

describe('the licence check', () => {
  it('registers, awaits the check, then completes with risk and the next check date', async () => {
    const k = await submitted('licence-check', 'Morgan');
    let a = await licenceCheck(k.activityId);
    expect(a.state).toBe('ca-in-progress');
    expect(a.result_data).toMatchObject({
      status: 'AwaitingCheck',
      mandate_date: today(),
      licence: { number: maskIdentifier(k.number) },
    });
    expect(a.processing_data.reference).toMatch(/^DV-\d+$/);
    await pollActivity(t.app.deps, job(k.activityId));
    a = await licenceCheck(k.activityId);
    expect(a.state).toBe('ca-complete');
    // the service's dates: the providers' clock
    const checkedOn = providerDays.now();
    const next = new Date(checkedOn);
    next.setUTCMonth(next.getUTCMonth() + 12);
    expect(a.result_data).toMatchObject({
      status: 'Checked',
      risk: 'low',
      last_check_date: checkedOn.toISOString().slice(0, 10),
      next_check_date: next.toISOString().slice(0, 10),
      licence: { status: 'Valid', points: 0 },
      address: '1 Test Street, Swansea, SA6 7JL',
      endorsements: [],
    });
    expect(a.result_data.entitlements?.map((e) => e.category)).toEqual(['B', 'A']);
    // the licence is kept masked, in the result and in the service's logged answers
    expect(a.result_data.licence?.number).toBe(maskIdentifier(k.number));
    const raw = await stored(k.activityId);
    expect(raw).not.toContain(k.number);
    expect(raw).toContain(maskIdentifier(k.number));
  });

  it('endorsements make a medium risk checked again in 6 months; an unknown code is kept', async () => {
    const k = await submitted('licence-check', 'Endorsed');
    await pollActivity(t.app.deps, job(k.activityId));
    const a = await licenceCheck(k.activityId);
    expect(a.result_data.risk).toBe('medium');
    expect(a.result_data.licence?.points).toBe(5);
    expect(a.result_data.endorsements?.map((e) => e.offence_code)).toEqual(['SP30', 'ZZ99']);
  });

  it('DQ3: a manual DVLA response keeps it in progress until answered', async () => {
    const k = await submitted('licence-check', 'Manual');
    let a = await licenceCheck(k.activityId);
    expect([a.state, a.result_data.status]).toEqual(['ca-in-progress', 'DQ3']);
    await pollActivity(t.app.deps, job(k.activityId));
    a = await licenceCheck(k.activityId);
    expect([a.state, a.result_data.status]).toEqual(['ca-in-progress', 'DQ3']);
    providerDays.advance(10 * DAY);
    await pollActivity(t.app.deps, job(k.activityId));
    a = await licenceCheck(k.activityId);
    expect([a.state, a.result_data.status]).toEqual(['ca-complete', 'Checked']);
  });

  it('EmailUnconfirmed waits for the Davis email confirmation of operations', async () => {
    const k = await submitted('licence-check', 'Unconfirmed');
    let a = await licenceCheck(k.activityId);
    expect([a.state, a.result_data.status]).toEqual(['ca-awaiting-ops', 'EmailUnconfirmed']);
    const url = `/api/ops/case-activities/${k.activityId}/davis-email/`;
    const empty = await call(ops, 'POST', url, { email: '' });
    expect(empty.statusCode).toBe(400);
    expect(empty.json()).toMatchObject({ email: ['Required'] });
    const bad = await call(ops, 'POST', url, { email: 'ada' });
    expect(bad.json()).toMatchObject({ email: ['Invalid email'] });
    // customer staff have no ops forms
    expect((await call(admin, 'POST', url, { email: 'ada@example.com' })).statusCode).toBe(403);
    const ok = await call(ops, 'POST', url, { email: 'ada.m@example.com' });
    expect(ok.statusCode, ok.body).toBe(200);
    expect(ok.json()).toMatchObject({
      state: 'ca-in-progress',
      result_data: { confirmed_email: 'ada.m@example.com', confirmed_at: today() },
    });
    await t.settle();
    a = await licenceCheck(k.activityId);
    expect(a.result_data.status).toBe('AwaitingCheck');
    await pollActivity(t.app.deps, job(k.activityId));
    a = await licenceCheck(k.activityId);
    expect([a.state, a.result_data.status]).toEqual(['ca-complete', 'Checked']);
    expect(a.result_data.confirmed_email).toBe('ada.m@example.com');
    // a closed check refuses it
    const closed = await call(ops, 'POST', url, { email: 'ada@example.com' });
    expect(closed.statusCode).toBe(400);
  });

  it('NotFound: left for a decision', async () => {
    const k = await submitted('licence-check', 'Notfound');
    const a = await licenceCheck(k.activityId);
    expect([a.state, a.result_data.status]).toEqual(['ca-pending-activity-decision', 'NotFound']);
  });

  it('a provider error then the retry', async () => {
    const k = await submitted('licence-check', 'Failonce');
    expect((await licenceCheck(k.activityId)).state).toBe('ca-error-initiating');
    await initiateActivity(t.app.deps, job(k.activityId));
    expect((await licenceCheck(k.activityId)).state).toBe('ca-in-progress');
  });

  it('re-checks on the cadence its risk set; a change raises a flag on the case', async () => {
    const quiet = await submitted('licence-check', 'Morgan');
    const k = await submitted('licence-check', 'Changes');
    for (const x of [quiet, k]) await pollActivity(t.app.deps, job(x.activityId));
    // nothing is due yet
    await licenceCheckRechecksJob.handle({}, t.app.deps);
    await t.settle();
    expect((await licenceCheck(k.activityId)).result_data.changes).toEqual([]);
    // their next check dates have come
    for (const x of [quiet, k]) {
      await t.owner(async (tx) => {
        const [row] = await tx
          .select()
          .from(caseActivities)
          .where(eq(caseActivities.id, x.activityId));
        await tx
          .update(caseActivities)
          .set({ resultData: { ...row?.resultData, next_check_date: today() } })
          .where(eq(caseActivities.id, x.activityId));
      });
    }
    providerDays.advance(DAY);
    await licenceCheckRechecksJob.handle({}, t.app.deps);
    await t.settle();
    const changed = await licenceCheck(k.activityId);
    expect(changed.state).toBe('ca-complete');
    expect(changed.result_data.changes?.[0]).toMatch(/^New endorsement SP30 /);
    expect(changed.result_data.licence?.points).toBe(3);
    const same = await licenceCheck(quiet.activityId);
    expect(same.result_data.changes).toEqual([]);
    const raised = await t.owner((tx) => tx.select().from(flags).where(eq(flags.customerId, acme)));
    expect(raised.filter((f) => f.caseId === k.caseId).map((f) => f.message)).toEqual([
      expect.stringContaining(RECHECK_FLAG_MESSAGE),
    ]);
    expect(raised.filter((f) => f.caseId === quiet.caseId)).toEqual([]);
  });

  it('the Davis email form is for licence checks only', async () => {
    const k = await submitted('driver-data', 'Morgan');
    const res = await call(ops, 'POST', `/api/ops/case-activities/${k.activityId}/davis-email/`, {
      email: 'ada@example.com',
    });
    expect(res.statusCode).toBe(400);
  });
});

describe('licence numbers stored before masking', () => {
  it('the field-keys sweep masks them in results and logged requests and answers, once', async () => {
    const d = await submitted('driver-data', 'Morgan');
    const l = await submitted('licence-check', 'Morgan');
    await pollActivity(t.app.deps, job(l.activityId));
    // as an older server wrote them: the plain number in the answer, the request and the result
    await t.owner(async (tx) => {
      for (const x of [d, l]) {
        const [row] = await tx
          .select()
          .from(caseActivities)
          .where(eq(caseActivities.id, x.activityId));
        if (!row?.processingData) throw new Error('no activity');
        const processing = processingDataSchema.parse(row.processingData);
        const events = processing.events.map((e) =>
          e.type === 'answer' && x === d
            ? { ...e, body: { ...e.body, record: { driver: { drivingLicenceNumber: x.number } } } }
            : e.type === 'answer'
              ? { ...e, body: { ...e.body, licence: { number: x.number, status: 'Valid' } } }
              : { ...e, body: { ...e.body, licence_number: x.number } },
        );
        await tx
          .update(caseActivities)
          .set({
            processingData: { ...processing, events },
            ...(x === l
              ? { resultData: { ...row.resultData, licence: { number: x.number, points: 0 } } }
              : {}),
          })
          .where(eq(caseActivities.id, x.activityId));
      }
    });
    for (const x of [d, l]) expect(await stored(x.activityId)).toContain(x.number);
    const swept = await sweepAllFieldKeys(t.app.deps.db, fieldCipher(), 1);
    expect(swept.masked).toBeGreaterThanOrEqual(2);
    for (const x of [d, l]) {
      const raw = await stored(x.activityId);
      expect(raw).not.toContain(x.number);
      expect(raw).toContain(maskIdentifier(x.number));
    }
    // the screens read them as before
    const a = await licenceCheck(l.activityId);
    expect(a.result_data.licence).toMatchObject({ number: maskIdentifier(l.number), points: 0 });
    expect((await sweepAllFieldKeys(t.app.deps.db, fieldCipher())).masked).toBe(0);
  });
});
