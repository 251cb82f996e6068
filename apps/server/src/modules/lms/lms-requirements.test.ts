import { MESSAGES } from '@kestrel/domain';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  buildTestApp,
  type Client,
  createCustomer,
  createProductUser,
  login,
  type TestApp,
} from '../../../test/helpers.js';
import { auditActions } from '../../platform/tables/audit.table.js';
import { DEFINITION_CT } from './lms.service.js';

// A licence's check configuration (issue 32): PATCH
// /api/lms/definitions/{id}/requirements/{activity_type}/ with its permission, tenancy,
// validation per kind of check, success and audit.

let t: TestApp;
let council: Client;
let viewer: Client;
let otherCouncil: Client;
let definition: number;

const url = (id: number, kind: string) => `/api/lms/definitions/${id}/requirements/${kind}/`;
const call = (client: Client, method: string, path: string, payload?: unknown) =>
  t.app.inject({
    method: method as 'GET',
    url: path,
    headers: client.headers,
    ...(payload === undefined ? {} : { payload: payload as Record<string, unknown> }),
  });
const configOf = (body: { requirements: { activity_type: string; config: object }[] }, k: string) =>
  body.requirements.find((r) => r.activity_type === k)?.config;

beforeAll(async () => {
  t = await buildTestApp({ config: { jobWorkers: false } });
  await t.owner(async (tx) => {
    const northgate = (await createCustomer(tx, { name: 'Northgate Council' })).id;
    const southby = (await createCustomer(tx, { name: 'Southby Council' })).id;
    await createProductUser(tx, { customerId: northgate, username: 'officer@northgate.test' });
    await createProductUser(tx, {
      customerId: northgate,
      username: 'viewer@northgate.test',
      roles: ['viewer'],
    });
    await createProductUser(tx, { customerId: southby, username: 'officer@southby.test' });
  });
  council = await login(t.app, 'officer@northgate.test');
  viewer = await login(t.app, 'viewer@northgate.test');
  otherCouncil = await login(t.app, 'officer@southby.test');
  const g = await call(council, 'POST', '/api/lms/licence-groups/', { name: 'Taxi' });
  const sg = await call(council, 'POST', '/api/lms/licence-sub-groups/', {
    group: g.json().id,
    name: 'Private hire driver',
    code: 'PHD',
  });
  const d = await call(council, 'POST', '/api/lms/definitions/', {
    sub_group: sg.json().id,
    name: 'Private hire driver (3 years)',
    duration_years: 3,
    fee_pence: 25000,
    requirements: [
      { activity_type: 'dbs-enhanced' },
      { activity_type: 'driver-data' },
      { activity_type: 'rtw' },
    ],
  });
  expect(d.statusCode, d.body).toBe(201);
  definition = d.json().id;
});
afterAll(() => t.close());

describe('PATCH a check configuration of a licence', () => {
  it('keeps the enhanced DBS settings: workforce, barred lists, purpose; audited', async () => {
    const r = await call(council, 'PATCH', url(definition, 'dbs-enhanced'), {
      config: {
        purpose: 'licence',
        employment_sector: 'taxi-private-hire',
        position: 'Private hire driver',
        workforce: 'CA',
        adult_barred_list: true,
        child_barred_list: true,
        working_at_home_address: false,
        employer_name: '',
      },
    });
    expect(r.statusCode, r.body).toBe(200);
    // a setting that holds no value is not kept
    expect(configOf(r.json(), 'dbs-enhanced')).toEqual({
      purpose: 'licence',
      employment_sector: 'taxi-private-hire',
      position: 'Private hire driver',
      workforce: 'CA',
      adult_barred_list: true,
      child_barred_list: true,
      working_at_home_address: false,
    });
    // the other checks are untouched, and a reload gives the same
    const again = await call(council, 'GET', `/api/lms/definitions/${definition}/`);
    expect(configOf(again.json(), 'dbs-enhanced')).toMatchObject({ workforce: 'CA' });
    expect(configOf(again.json(), 'driver-data')).toEqual({});
    const audit = await t.owner((tx) =>
      tx
        .select()
        .from(auditActions)
        .where(
          and(
            eq(auditActions.contentType, DEFINITION_CT),
            eq(auditActions.objectId, String(definition)),
            eq(auditActions.verb, 'updated'),
          ),
        ),
    );
    const entry = audit.find((a) => a.changes.requirement === 'dbs-enhanced');
    expect(entry?.changes).toMatchObject({
      config: { from: {}, to: { workforce: 'CA', adult_barred_list: true } },
    });
    expect(entry?.actorId).toEqual(expect.any(Number));
  });

  it('replaces the whole configuration: a setting left out is cleared', async () => {
    const r = await call(council, 'PATCH', url(definition, 'dbs-enhanced'), {
      config: { workforce: 'A' },
    });
    expect(r.statusCode, r.body).toBe(200);
    expect(configOf(r.json(), 'dbs-enhanced')).toEqual({ workforce: 'A' });
  });

  it('keeps the driver data settings (CPC and tacho cards)', async () => {
    const r = await call(council, 'PATCH', url(definition, 'driver-data'), {
      config: { include_cpc: true, include_tacho: false },
    });
    expect(r.statusCode, r.body).toBe(200);
    expect(configOf(r.json(), 'driver-data')).toEqual({ include_cpc: true, include_tacho: false });
  });

  it('refuses a setting the kind does not take, in the spec error shape', async () => {
    const r = await call(council, 'PATCH', url(definition, 'driver-data'), {
      config: { include_cpc: true, workforce: 'C' },
    });
    expect(r.statusCode).toBe(400);
    expect(r.json()).toEqual({
      'config.workforce': ['This setting does not apply to the Driver data check.'],
    });
    const rtw = await call(council, 'PATCH', url(definition, 'rtw'), {
      config: { scheme_type: 'rtw' },
    });
    expect(rtw.statusCode).toBe(400);
    expect(Object.keys(rtw.json())).toEqual(['config.scheme_type']);
    // nothing was changed
    const d = await call(council, 'GET', `/api/lms/definitions/${definition}/`);
    expect(configOf(d.json(), 'driver-data')).toEqual({ include_cpc: true, include_tacho: false });
  });

  it("applies spec point 3's rules: a choice not offered, 'other' needs its purpose", async () => {
    const bad = await call(council, 'PATCH', url(definition, 'dbs-enhanced'), {
      config: { workforce: 'X' },
    });
    expect(bad.statusCode).toBe(400);
    expect(Object.keys(bad.json())).toEqual(['config.workforce']);
    const missing = await call(council, 'PATCH', url(definition, 'dbs-enhanced'), {
      config: { purpose: 'other', paper_cert: true },
    });
    expect(missing.statusCode).toBe(400);
    const body = missing.json();
    expect(Object.keys(body)).toEqual(
      expect.arrayContaining([
        'config.other_purpose',
        'config.paper_cert_name',
        'config.paper_cert_postcode',
      ]),
    );
    expect(body['config.other_purpose']).toEqual([MESSAGES.required]);
    const noBody = await call(council, 'PATCH', url(definition, 'dbs-enhanced'), {});
    expect(noBody.statusCode).toBe(400);
    expect(noBody.json()).toEqual({ config: [MESSAGES.required] });
  });

  it('a check the licence does not require, or an unknown licence, is 404', async () => {
    const missing = await call(council, 'PATCH', url(definition, 'dbs-basic'), { config: {} });
    expect(missing.statusCode).toBe(404);
    const none = await call(council, 'PATCH', url(999999, 'dbs-enhanced'), { config: {} });
    expect(none.statusCode).toBe(404);
  });

  it('needs lms_definitions.change_definition: a viewer and a subject-less login are refused', async () => {
    const r = await call(viewer, 'PATCH', url(definition, 'driver-data'), {
      config: { include_cpc: false },
    });
    expect(r.statusCode).toBe(403);
    const anonymous = await t.app.inject({
      method: 'PATCH',
      url: url(definition, 'driver-data'),
      payload: { config: {} },
    });
    expect([401, 403]).toContain(anonymous.statusCode);
  });

  it("another council's licence is 404 and stays unchanged", async () => {
    const r = await call(otherCouncil, 'PATCH', url(definition, 'driver-data'), {
      config: { include_cpc: false },
    });
    expect(r.statusCode).toBe(404);
    const d = await call(council, 'GET', `/api/lms/definitions/${definition}/`);
    expect(configOf(d.json(), 'driver-data')).toEqual({ include_cpc: true, include_tacho: false });
  });

  it('two edits of different checks at once both stay (the licence row is locked)', async () => {
    const [a, b] = await Promise.all([
      call(council, 'PATCH', url(definition, 'dbs-enhanced'), { config: { workforce: 'C' } }),
      call(council, 'PATCH', url(definition, 'driver-data'), { config: { include_tacho: true } }),
    ]);
    expect(a.statusCode, a.body).toBe(200);
    expect(b.statusCode, b.body).toBe(200);
    const d = await call(council, 'GET', `/api/lms/definitions/${definition}/`);
    expect(configOf(d.json(), 'dbs-enhanced')).toEqual({ workforce: 'C' });
    expect(configOf(d.json(), 'driver-data')).toEqual({ include_tacho: true });
  });
});
