import { RESULT_REDACTED_DETAIL } from '@kestrel/domain';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  buildTestApp,
  type Client,
  createAdminAndViewer,
  createCase,
  createCustomer,
  createProcess,
  createProductUser,
  login,
  type TestApp,
} from '../../../test/helpers.js';
import { runInTenant } from '../../platform/service-context.js';
import { caseActivities } from '../activities/activities.table.js';
import { activityTypes } from '../bootstrap/bootstrap.table.js';
import { createCaseBasicDetails } from '../case-data/case-data.factories.js';
import { redactActivityResult } from '../retention/redact.js';
import { jobActorOf } from './activity.js';

// Issue 34: a staff member's result write (the manual right-to-work check, the manual identity
// approval, an adult-first stage, the Davis email confirmation, a PATCH of result data) to an activity whose result was redacted (an erasure, a
// retention rule) is refused with 409 and writes nothing: it would put the removed content back.
// Each write is first shown to succeed on the same kind of activity left unredacted.

let t: TestApp;
let acme: number;
let processId: number;
let admin: Client;
let ops: Client;

beforeAll(async () => {
  t = await buildTestApp();
  await t.owner(async (tx) => {
    acme = (await createCustomer(tx, { name: 'Acme' })).id;
    processId = (
      await createProcess(tx, {
        customerId: acme,
        requirements: [
          'basic-details',
          'dbs-enhanced',
          'rtw',
          'online-idv',
          'adult-first',
          'licence-check',
        ],
      })
    ).id;
    await createAdminAndViewer(tx, acme);
    await createProductUser(tx, {
      customerId: null,
      username: 'ops@k.test',
      roles: ['ops'],
      firstName: 'Olive',
      lastName: 'Ops',
    });
  });
  admin = await login(t.app, 'admin@acme.test');
  ops = await login(t.app, 'ops@k.test');
});
afterAll(() => t.close());

/** An open case with each kind's activity in progress: their ids by kind. */
async function openCase() {
  return t.owner(async (tx) => {
    const c = await createCase(tx, {
      customerId: acme,
      processId,
      activityStates: ['ca-in-progress'],
    });
    await createCaseBasicDetails(
      tx,
      { customerId: acme, caseId: c.id },
      { forename: 'Ada', surname: 'Lovelace', dob: '1990-01-01' },
    );
    const rows = await tx
      .select({ id: caseActivities.id, code: activityTypes.code })
      .from(caseActivities)
      .innerJoin(activityTypes, eq(activityTypes.id, caseActivities.activityTypeId))
      .where(eq(caseActivities.caseId, c.id));
    const id = (code: string) => rows.find((r) => r.code === code)?.id ?? 0;
    return {
      caseId: c.id,
      rtw: id('rtw'),
      idv: id('online-idv'),
      adultFirst: id('adult-first'),
      licence: id('licence-check'),
      basic: id('basic-details'),
    };
  });
}

const redact = (activityId: number) =>
  runInTenant(t.app.deps, jobActorOf(acme), (ctx) =>
    redactActivityResult(ctx, activityId, 'erasure'),
  );

const row = async (activityId: number) => {
  const [r] = await t.owner((tx) =>
    tx.select().from(caseActivities).where(eq(caseActivities.id, activityId)),
  );
  return r;
};

const post = (c: Client, url: string, payload: object) =>
  t.app.inject({ method: 'POST', url, headers: c.headers, payload });

const patch = (c: Client, url: string, payload: object) =>
  t.app.inject({ method: 'PATCH', url, headers: c.headers, payload });

const writes = {
  'the manual right-to-work check': (k: Awaited<ReturnType<typeof openCase>>) =>
    post(admin, `/api/case-activities/${k.rtw}/rtw-check/`, {
      outcome: 'permanent',
      documents: ['british-passport'],
      notes: 'Passport seen in person.',
    }),
  "operations' manual identity approval": (k: Awaited<ReturnType<typeof openCase>>) =>
    post(ops, `/api/ops/case-activities/${k.idv}/idv-approve/`, {
      reason: 'Passport seen in person',
    }),
  "operations' adult-first stage": (k: Awaited<ReturnType<typeof openCase>>) =>
    post(ops, `/api/ops/case-activities/${k.adultFirst}/progress/`, {
      stage: 'pending',
      data: { dbs_case: k.caseId, reference: 'AF-123' },
    }),
  "operations' Davis email confirmation": (k: Awaited<ReturnType<typeof openCase>>) =>
    post(ops, `/api/ops/case-activities/${k.licence}/davis-email/`, {
      email: 'ada@example.test',
    }),
  // review 30 H3: the general edit writes result data through writeActivity, which refuses too
  "operations' PATCH of an activity's result data": (k: Awaited<ReturnType<typeof openCase>>) =>
    patch(ops, `/api/ops/case-activities/${k.basic}/`, { result_data: { note: 'Put back' } }),
  "customer staff's PATCH of an activity's result data": (
    k: Awaited<ReturnType<typeof openCase>>,
  ) => patch(admin, `/api/case-activities/${k.basic}/`, { result_data: { note: 'Put back' } }),
};
const target = {
  'the manual right-to-work check': 'rtw',
  "operations' manual identity approval": 'idv',
  "operations' adult-first stage": 'adultFirst',
  "operations' Davis email confirmation": 'licence',
  "operations' PATCH of an activity's result data": 'basic',
  "customer staff's PATCH of an activity's result data": 'basic',
} as const;

describe('staff result writes to a redacted activity', () => {
  for (const [name, write] of Object.entries(writes)) {
    const key = target[name as keyof typeof target];
    it(`${name}: written when not redacted, 409 and nothing written once redacted`, async () => {
      const plain = await openCase();
      const ok = await write(plain);
      expect(ok.statusCode, ok.body).toBe(200);
      expect((await row(plain[key]))?.resultData).not.toEqual({});

      const k = await openCase();
      expect(await redact(k[key])).not.toBeNull();
      const before = await row(k[key]);
      const refused = await write(k);
      expect(refused.statusCode, refused.body).toBe(409);
      expect(refused.json()).toEqual({ detail: RESULT_REDACTED_DETAIL });
      const after = await row(k[key]);
      expect(after?.resultData).toEqual(before?.resultData);
      expect(after?.state).toBe(before?.state);
      expect(after?.updatedAt).toEqual(before?.updatedAt);
    });
  }
});
