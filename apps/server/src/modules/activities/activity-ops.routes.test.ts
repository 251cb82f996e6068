import {
  type ActivityConfig,
  deriveCaseState,
  ENGINE_ACTIVITY_MESSAGES,
  initialProcessingData,
  processingDataSchema,
  ROLE_TEMPLATES,
} from '@kestrel/domain';
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
  DBS_PROVIDER_CONFIGURATION,
  login,
  type TestApp,
} from '../../../test/helpers.js';
import { auditActions } from '../../platform/tables/audit.table.js';
import { activityTypes } from '../bootstrap/bootstrap.table.js';
import { cases } from '../cases/cases.table.js';
import { caseActivities } from './activities.table.js';

let t: TestApp;
let acme: number;
let plain: number;
let adultProc: number;
let childProc: number;
let plainProc: number;
let admin: Client;
let viewer: Client;
let plainAdmin: Client;
let ops: Client;

const activitiesOf = (caseId: number) =>
  t.owner((tx) =>
    tx
      .select({ row: caseActivities, code: activityTypes.code })
      .from(caseActivities)
      .innerJoin(activityTypes, eq(activityTypes.id, caseActivities.activityTypeId))
      .where(eq(caseActivities.caseId, caseId))
      .orderBy(caseActivities.position),
  );
const enhancedOf = async (caseId: number) =>
  (await activitiesOf(caseId)).find((a) => a.code === 'dbs-enhanced')?.row.id ?? 0;

const adultConfig = { adult_barred_list: true, workforce: 'CA' as const };

beforeAll(async () => {
  t = await buildTestApp();
  await t.owner(async (tx) => {
    acme = (await createCustomer(tx, { name: 'Acme' })).id;
    plain = (
      await createCustomer(tx, {
        name: 'Plain',
        activityTypes: ['basic-details', 'dbs-enhanced'],
      })
    ).id;
    const req = (config: object) => ['basic-details', { code: 'dbs-enhanced', config }];
    adultProc = (await createProcess(tx, { customerId: acme, requirements: req(adultConfig) })).id;
    childProc = (
      await createProcess(tx, {
        customerId: acme,
        requirements: req({ adult_barred_list: true, workforce: 'C' }),
      })
    ).id;
    plainProc = (await createProcess(tx, { customerId: plain, requirements: req(adultConfig) })).id;
    await createAdminAndViewer(tx, acme);
    await createAdminAndViewer(tx, plain, 'plain.test');
    await createProductUser(tx, {
      customerId: null,
      username: 'ops@k.test',
      roles: ['ops'],
      firstName: 'Olive',
      lastName: 'Ops',
    });
  });
  admin = await login(t.app, 'admin@acme.test');
  viewer = await login(t.app, 'viewer@acme.test');
  plainAdmin = await login(t.app, 'admin@plain.test');
  ops = await login(t.app, 'ops@k.test');
});
afterAll(() => t.close());

const call = (c: Client, method: 'GET' | 'POST' | 'PATCH', url: string, payload?: object) =>
  t.app.inject({ method, url, headers: c.headers, ...(payload ? { payload } : {}) });
const request = (c: Client, id: number, ops = false) =>
  call(c, 'POST', `/api/${ops ? 'ops/' : ''}case-activities/${id}/request-adult-first/`);

describe('request-adult-first', () => {
  it('creates the pending adult-first activity when the six conditions hold, once', async () => {
    const c = await t.owner((tx) =>
      createCase(tx, {
        customerId: acme,
        processId: adultProc,
        activityStates: ['ca-in-progress'],
      }),
    );
    const enhanced = await enhancedOf(c.id);
    const res = await request(admin, enhanced);
    expect(res.statusCode).toBe(201);
    expect(res.json()).toMatchObject({
      case: c.id,
      state: 'ca-awaiting-ops',
      activity_type: 'adult-first',
      result_data: { stage: 'pending', dbs_case: c.id },
    });
    const after = await activitiesOf(c.id);
    expect(after.map((a) => a.code)).toEqual(['basic-details', 'dbs-enhanced', 'adult-first']);
    const audit = await t.owner((tx) =>
      tx
        .select()
        .from(auditActions)
        .where(
          and(eq(auditActions.objectId, String(res.json().id)), eq(auditActions.verb, 'created')),
        ),
    );
    expect(audit.map((a) => a.customerId)).toEqual([acme]);
    // the case already has one: refused, nothing added
    const again = await request(admin, enhanced);
    expect([again.statusCode, again.json()]).toEqual([
      400,
      { non_field_errors: ['Adult first cannot be requested for this activity.'] },
    ]);
    expect(await activitiesOf(c.id)).toHaveLength(3);
  });

  it('the case follows its new open activity: awaiting its decision, it is worked again', async () => {
    const c = await t.owner((tx) =>
      createCase(tx, { customerId: acme, processId: adultProc, activityStates: ['ca-complete'] }),
    );
    expect(c.state).toBe('pending-case-decision');
    expect((await request(admin, await enhancedOf(c.id))).statusCode).toBe(201);
    const [after] = await t.owner((tx) => tx.select().from(cases).where(eq(cases.id, c.id)));
    expect(after?.state).toBe(deriveCaseState(['ca-complete', 'ca-complete', 'ca-awaiting-ops']));
    expect(after?.state).not.toBe('pending-case-decision');
  });

  it('refuses when a condition fails: not enhanced, no adult workforce, no type, no permission, other tenant', async () => {
    const c = await t.owner((tx) => createCase(tx, { customerId: acme, processId: adultProc }));
    const [basic] = await activitiesOf(c.id);
    expect((await request(admin, basic?.row.id ?? 0)).statusCode).toBe(400);
    const child = await t.owner((tx) => createCase(tx, { customerId: acme, processId: childProc }));
    expect((await request(admin, await enhancedOf(child.id))).statusCode).toBe(400);
    const p = await t.owner((tx) => createCase(tx, { customerId: plain, processId: plainProc }));
    expect((await request(plainAdmin, await enhancedOf(p.id))).statusCode).toBe(400);
    // the viewer lacks cases.add_case
    expect((await request(viewer, await enhancedOf(c.id))).statusCode).toBe(403);
    // another customer's activity is not found
    expect((await request(plainAdmin, await enhancedOf(c.id))).statusCode).toBe(404);
    expect((await request(admin, 99_999_999)).statusCode).toBe(404);
    expect((await request(admin, await enhancedOf(c.id), true)).statusCode).toBe(403);
    expect(await activitiesOf(c.id)).toHaveLength(2);
  });

  it('ops may request it through the ops path', async () => {
    const c = await t.owner((tx) => createCase(tx, { customerId: acme, processId: adultProc }));
    const res = await request(ops, await enhancedOf(c.id), true);
    expect(res.statusCode).toBe(201);
  });
});

/**
 * Point 6: requesting adult first is offered only when all six conditions hold. Each row makes
 * exactly one of them fail (everything else as in the case that succeeds), through both the
 * customer's and the operations path.
 */
describe('request-adult-first: offered exactly when the six conditions of point 6 hold', () => {
  type Requirement = string | { code: string; config: ActivityConfig };
  const enhancedWith = (config: ActivityConfig): Requirement[] => [
    'basic-details',
    { code: 'dbs-enhanced', config },
  ];
  const NOT_OFFERED = { non_field_errors: ['Adult first cannot be requested for this activity.'] };
  const DENIED = { detail: 'You do not have permission to perform this action.' };
  /** Callers by path: who may add cases, and one with every other permission but that. */
  const callers = {} as Record<'tenant' | 'ops', { acme: Client; plain: Client; noAdd: Client }>;

  beforeAll(async () => {
    await t.owner(async (tx) => {
      const tenantRole = await createRole(tx, {
        customerId: acme,
        permissions: ROLE_TEMPLATES.admin.filter((p) => p !== 'cases.add_case'),
      });
      await createProductUser(tx, {
        customerId: acme,
        username: 'no-add@acme.test',
        roles: [tenantRole.id],
      });
      const opsRole = await createRole(tx, {
        customerId: null,
        permissions: ROLE_TEMPLATES.ops.filter((p) => p !== 'cases.add_case'),
      });
      await createProductUser(tx, {
        customerId: null,
        username: 'ops-no-add@k.test',
        roles: [opsRole.id],
      });
    });
    callers.tenant = {
      acme: admin,
      plain: plainAdmin,
      noAdd: await login(t.app, 'no-add@acme.test'),
    };
    callers.ops = { acme: ops, plain: ops, noAdd: await login(t.app, 'ops-no-add@k.test') };
  });

  interface Row {
    /** the one condition that fails */
    fails: string;
    requirements: Requirement[];
    /** whose case: a customer with the adult-first activity type (acme) or without (plain) */
    customer?: 'acme' | 'plain';
    /** the caller: one who may add cases, or one with every permission but cases.add_case */
    caller?: 'full' | 'noAdd';
    /** the activity asked from (default the enhanced one) */
    from?: string;
    status: number;
    error: unknown;
  }
  const FAILS: Row[] = [
    {
      fails: '1. the activity is DBS enhanced (a standard one)',
      requirements: ['basic-details', { code: 'dbs-standard', config: adultConfig }],
      from: 'dbs-standard',
      status: 400,
      error: NOT_OFFERED,
    },
    {
      fails: '2. the customer has the adult-first activity type',
      requirements: enhancedWith(adultConfig),
      customer: 'plain',
      status: 400,
      error: NOT_OFFERED,
    },
    {
      fails: '3. no adult-first activity exists already on the case',
      requirements: [...enhancedWith(adultConfig), 'adult-first'],
      status: 400,
      error: NOT_OFFERED,
    },
    {
      fails: '4. the user holds the permission to add cases',
      requirements: enhancedWith(adultConfig),
      caller: 'noAdd',
      status: 403,
      error: DENIED,
    },
    {
      fails: "5. the adults' barred list is on (off, adult workforce)",
      requirements: enhancedWith({ adult_barred_list: false, workforce: 'A' }),
      status: 400,
      error: NOT_OFFERED,
    },
    {
      fails: "5. the adults' barred list is on (not set, child and adult workforce)",
      requirements: enhancedWith({ workforce: 'CA' }),
      status: 400,
      error: NOT_OFFERED,
    },
    {
      fails: '6. the workforce includes adult (child)',
      requirements: enhancedWith({ adult_barred_list: true, workforce: 'C' }),
      status: 400,
      error: NOT_OFFERED,
    },
    {
      fails: '6. the workforce includes adult (other)',
      requirements: enhancedWith({ adult_barred_list: true, workforce: 'O' }),
      status: 400,
      error: NOT_OFFERED,
    },
    {
      fails: '6. the workforce includes adult (not set)',
      requirements: enhancedWith({ adult_barred_list: true }),
      status: 400,
      error: NOT_OFFERED,
    },
  ];

  /** A case of `customer` with those requirements, and the id of the activity asked from. */
  async function caseWith(row: Pick<Row, 'requirements' | 'customer' | 'from'>) {
    const customerId = row.customer === 'plain' ? plain : acme;
    const c = await t.owner(async (tx) => {
      const p = await createProcess(tx, { customerId, requirements: row.requirements });
      return createCase(tx, { customerId, processId: p.id });
    });
    const from = (await activitiesOf(c.id)).find((a) => a.code === (row.from ?? 'dbs-enhanced'));
    if (!from) throw new Error('no activity to ask from');
    return { caseId: c.id, id: from.row.id };
  }

  describe.each(['tenant', 'ops'] as const)('through the %s path', (path) => {
    const clientOf = (row: Pick<Row, 'customer' | 'caller'>) =>
      row.caller === 'noAdd' ? callers[path].noAdd : callers[path][row.customer ?? 'acme'];

    it.each(FAILS.map((row) => [row.fails, row] as const))(
      'refused when only this fails: %s',
      async (_, row) => {
        const k = await caseWith(row);
        const before = await activitiesOf(k.caseId);
        const res = await request(clientOf(row), k.id, path === 'ops');
        expect([res.statusCode, res.json()]).toEqual([row.status, row.error]);
        // nothing of adult first changed: no activity added, the asking one as it was
        expect(await activitiesOf(k.caseId)).toEqual(before);
      },
    );

    it.each([{ workforce: 'A' as const }, { workforce: 'CA' as const }])(
      'requested when all six hold (workforce $workforce)',
      async ({ workforce }) => {
        const config = { adult_barred_list: true, workforce };
        const k = await caseWith({ requirements: enhancedWith(config) });
        const before = await activitiesOf(k.caseId);
        const res = await request(clientOf({}), k.id, path === 'ops');
        expect(res.statusCode).toBe(201);
        const created = res.json() as { id: number };
        expect(created).toEqual({
          id: expect.any(Number),
          case: k.caseId,
          state: 'ca-awaiting-ops',
          activity_type: 'adult-first',
          result_data: { stage: 'pending', dbs_case: k.caseId },
        });
        const after = await activitiesOf(k.caseId);
        // the asking activity untouched; the adult-first one added last, with its barred-list data
        expect(after.slice(0, before.length)).toEqual(before);
        expect(after.slice(before.length)).toEqual([
          {
            code: 'adult-first',
            row: expect.objectContaining({
              id: created.id,
              state: 'ca-awaiting-ops',
              config,
              resultData: { stage: 'pending', dbs_case: k.caseId },
            }),
          },
        ]);
        // now the case has one: condition 3 fails, refused
        const again = await request(clientOf({}), k.id, path === 'ops');
        expect([again.statusCode, again.json()]).toEqual([400, NOT_OFFERED]);
        expect(await activitiesOf(k.caseId)).toEqual(after);
      },
    );
  });
});

describe('serviced stage and progress (adult first)', () => {
  it('moves pending -> requested -> result received, validating each stage', async () => {
    const c = await t.owner((tx) => createCase(tx, { customerId: acme, processId: adultProc }));
    const af = (await request(admin, await enhancedOf(c.id))).json().id as number;
    const stageUrl = `/api/ops/case-activities/${af}/serviced-stage/`;
    const progressUrl = `/api/ops/case-activities/${af}/progress/`;

    const first = await call(ops, 'GET', stageUrl);
    expect(first.statusCode).toBe(200);
    expect(first.json()).toMatchObject({
      activity: af,
      case: c.id,
      stage: 'pending',
      next_stage: 'requested',
      dbs_case_options: [{ id: c.id, label: expect.stringContaining(`Case #${c.id}`) }],
    });
    // customers are refused the ops paths
    expect((await call(admin, 'GET', stageUrl)).statusCode).toBe(403);
    expect(
      (await call(admin, 'POST', progressUrl, { stage: 'pending', data: {} })).statusCode,
    ).toBe(403);

    const missing = await call(ops, 'POST', progressUrl, { stage: 'pending', data: {} });
    expect(missing.statusCode).toBe(400);
    expect(missing.json()).toEqual({
      'data.dbs_case': ['Required'],
      'data.reference': ['Required'],
    });
    const wrongCase = await call(ops, 'POST', progressUrl, {
      stage: 'pending',
      data: { dbs_case: 99_999, reference: 'AF1' },
    });
    expect(wrongCase.statusCode).toBe(400);
    expect(Object.keys(wrongCase.json())).toEqual(['data.dbs_case']);
    const wrongStage = await call(ops, 'POST', progressUrl, {
      stage: 'requested',
      data: { result: 'no-match' },
    });
    expect([wrongStage.statusCode, Object.keys(wrongStage.json())]).toEqual([400, ['stage']]);
    const bad = await call(ops, 'POST', progressUrl, { stage: 'nowhere', data: {} });
    expect(bad.statusCode).toBe(400);

    const requested = await call(ops, 'POST', progressUrl, {
      stage: 'pending',
      data: { dbs_case: c.id, reference: 'AF-123', e_number: 'E0001' },
    });
    expect(requested.statusCode).toBe(200);
    expect(requested.json()).toMatchObject({
      stage: 'requested',
      next_stage: 'result-received',
      state: 'ca-awaiting-ops',
      result_data: { stage: 'requested', dbs_case: c.id, reference: 'AF-123', e_number: 'E0001' },
    });

    const noResult = await call(ops, 'POST', progressUrl, { stage: 'requested', data: {} });
    expect([noResult.statusCode, noResult.json()]).toEqual([400, { 'data.result': ['Required'] }]);
    const done = await call(ops, 'POST', progressUrl, {
      stage: 'requested',
      data: { result: 'wait-for-certificate' },
    });
    expect(done.statusCode).toBe(200);
    expect(done.json()).toMatchObject({
      stage: 'result-received',
      next_stage: null,
      state: 'ca-complete',
      result_data: { result: 'wait-for-certificate', reference: 'AF-123' },
    });
    const closed = await call(ops, 'POST', progressUrl, {
      stage: 'result-received',
      data: {},
    });
    expect(closed.statusCode).toBe(400);
    const audits = await t.owner((tx) =>
      tx
        .select()
        .from(auditActions)
        .where(eq(auditActions.objectId, String(af))),
    );
    expect(audits.map((a) => a.verb)).toEqual(['created', 'updated', 'state_changed']);
  });

  it('a kind without stages is refused; unknown is 404', async () => {
    const c = await t.owner((tx) => createCase(tx, { customerId: acme, processId: adultProc }));
    const enhanced = await enhancedOf(c.id);
    expect(
      (await call(ops, 'GET', `/api/ops/case-activities/${enhanced}/serviced-stage/`)).json(),
    ).toEqual({ non_field_errors: ['This activity has no stages for operations.'] });
    expect(
      (await call(ops, 'GET', '/api/ops/case-activities/99999999/serviced-stage/')).statusCode,
    ).toBe(404);
  });
});

describe('processing data (ops)', () => {
  const provider = DBS_PROVIDER_CONFIGURATION;

  it('merges keys under the lock and checks the provider configuration form', async () => {
    const c = await t.owner((tx) => createCase(tx, { customerId: acme, processId: adultProc }));
    const enhanced = await enhancedOf(c.id);
    // the engine's data of a started application (its provider log)
    const started = initialProcessingData('ebulk', `kestrel-ca-${enhanced}`);
    await t.owner((tx) =>
      tx
        .update(caseActivities)
        .set({ processingData: started })
        .where(eq(caseActivities.id, enhanced)),
    );
    const url = `/api/ops/case-activities/${enhanced}/processing-data/`;
    const res = await call(ops, 'PATCH', url, { provider_configuration: provider });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      id: enhanced,
      processing_data: { ...started, provider_configuration: provider },
    });
    // still the engine's data: it goes on reading it (callbacks, polls, retries)
    expect(processingDataSchema.safeParse(res.json().processing_data).success).toBe(true);
    // a started check's data stays in the engine's shape
    const other = await call(ops, 'PATCH', url, { log: [], attempts: 'many' });
    expect(other.statusCode).toBe(400);
    expect(other.json()).toEqual({ processing_data: [ENGINE_ACTIVITY_MESSAGES.processingData] });

    const invalid = await call(ops, 'PATCH', url, {
      provider_configuration: { ...provider, email: 'nope', manager_email: '', position: '' },
    });
    expect(invalid.statusCode).toBe(400);
    expect(invalid.json()).toEqual({
      'provider_configuration.email': ['Invalid email'],
      'provider_configuration.manager_email': ['Required'],
      'provider_configuration.position': ['Required'],
    });
    expect((await call(admin, 'PATCH', url, { provider_configuration: provider })).statusCode).toBe(
      403,
    );
    const [row] = (await activitiesOf(c.id)).filter((a) => a.row.id === enhanced);
    expect(row?.row.processingData).toEqual({
      ...started,
      provider_configuration: provider,
    });
  });
});

describe('the subject result view', () => {
  it('its own activity only, without other people names; processing data and notes never', async () => {
    const { own, other } = await t.owner(async (tx) => {
      const sam = await createSubjectUser(tx, {
        customerId: acme,
        email: 'sam-results@example.test',
      });
      const kim = await createSubjectUser(tx, {
        customerId: acme,
        email: 'kim-results@example.test',
      });
      const own = await createCase(tx, {
        customerId: acme,
        processId: adultProc,
        subjectId: sam.id,
      });
      const other = await createCase(tx, {
        customerId: acme,
        processId: adultProc,
        subjectId: kim.id,
      });
      return { own, other };
    });
    const mine = await enhancedOf(own.id);
    await t.owner((tx) =>
      tx
        .update(caseActivities)
        .set({
          resultData: {
            application: {
              reference: 'E1',
              verified_by: 'Vera Verifier',
              countersigned_by: 'Colin',
            },
            disclosure: { status: 'clear' },
          },
          processingData: { secret: 'x' },
          notes: 'internal',
        })
        .where(eq(caseActivities.id, mine)),
    );
    const sam = await login(t.app, 'sam-results@example.test');
    const res = await call(sam, 'GET', `/api/s/case-activities/${mine}/result/`);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      id: mine,
      case: own.id,
      activity_type: 'dbs-enhanced',
      state: 'ca-awaiting-subject',
      result_data: { application: { reference: 'E1' }, disclosure: { status: 'clear' } },
    });
    // another subject's activity is not found; staff are refused the subject path
    const theirs = await enhancedOf(other.id);
    expect((await call(sam, 'GET', `/api/s/case-activities/${theirs}/result/`)).statusCode).toBe(
      404,
    );
    expect((await call(admin, 'GET', `/api/s/case-activities/${mine}/result/`)).statusCode).toBe(
      403,
    );
  });
});

describe('the subject result view of a person held by two customers', () => {
  it("acts for the customer of the activity's case, never another's case", async () => {
    const { acmeCase, plainCase, strangerCase } = await t.owner(async (tx) => {
      const atAcme = await createSubjectUser(tx, {
        customerId: acme,
        email: 'twice-results@example.test',
        createdAt: new Date('2026-01-01T00:00:00Z'),
      });
      // taken on later by a second customer: the session acts for this newest one
      const atPlain = await createSubjectUser(tx, {
        customerId: plain,
        email: 'twice-results@example.test',
        createdAt: new Date('2026-06-01T00:00:00Z'),
      });
      const stranger = await createSubjectUser(tx, {
        customerId: acme,
        email: 'stranger-results@example.test',
      });
      const acmeCase = await createCase(tx, {
        customerId: acme,
        processId: adultProc,
        subjectId: atAcme.id,
      });
      const plainCase = await createCase(tx, {
        customerId: plain,
        processId: plainProc,
        subjectId: atPlain.id,
      });
      const strangerCase = await createCase(tx, {
        customerId: acme,
        processId: adultProc,
        subjectId: stranger.id,
      });
      return { acmeCase, plainCase, strangerCase };
    });
    const acmeActivity = await enhancedOf(acmeCase.id);
    const plainActivity = await enhancedOf(plainCase.id);
    await t.owner((tx) =>
      tx
        .update(caseActivities)
        .set({ resultData: { disclosure: { status: 'clear', certificate_number: '001' } } })
        .where(eq(caseActivities.id, acmeActivity)),
    );
    const twice = await login(t.app, 'twice-results@example.test');
    const atAcme = await call(twice, 'GET', `/api/s/case-activities/${acmeActivity}/result/`);
    expect(atAcme.statusCode).toBe(200);
    expect(atAcme.json()).toMatchObject({
      id: acmeActivity,
      case: acmeCase.id,
      result_data: { disclosure: { status: 'clear', certificate_number: '001' } },
    });
    const atPlain = await call(twice, 'GET', `/api/s/case-activities/${plainActivity}/result/`);
    expect(atPlain.statusCode).toBe(200);
    expect(atPlain.json()).toMatchObject({ id: plainActivity, case: plainCase.id });
    // a case of the same customer that is not the person's own, and no activity at all: 404
    const theirs = await enhancedOf(strangerCase.id);
    expect((await call(twice, 'GET', `/api/s/case-activities/${theirs}/result/`)).statusCode).toBe(
      404,
    );
    expect((await call(twice, 'GET', '/api/s/case-activities/99999/result/')).statusCode).toBe(404);
  });
});
