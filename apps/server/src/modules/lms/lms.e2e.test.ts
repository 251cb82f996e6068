import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  anonymous,
  buildTestApp,
  type Client,
  createCustomer,
  createProductUser,
  createSubjectUser,
  login,
  type TestApp,
} from '../../../test/helpers.js';
import { E2E_FIXTURES_ENV } from '../e2e-fixtures/e2e-fixtures.routes.js';
import { APPLICATION_CHECKS_COMPLETE_PATH } from './lms.e2e.js';

// The test-only fixture of the browser test lms-grant (issue 32): an application's checks
// complete, so the council may grant it.

let t: TestApp;
let council: Client;
let applicant: Client;

const ok = async (client: Client, method: 'GET' | 'POST', url: string, payload?: object) => {
  const res = await t.app.inject({
    method,
    url,
    headers: client.headers,
    ...(payload ? { payload: payload as Record<string, unknown> } : {}),
  });
  expect(res.statusCode, res.body).toBeLessThan(300);
  return res.json();
};

beforeAll(async () => {
  process.env[E2E_FIXTURES_ENV] = '1';
  t = await buildTestApp({ config: { jobWorkers: false } });
  await t.owner(async (tx) => {
    const id = (await createCustomer(tx, { name: 'Eastbrook Council' })).id;
    await createProductUser(tx, { customerId: id, username: 'officer@eastbrook.test' });
    await createSubjectUser(tx, {
      customerId: id,
      email: 'lee@example.test',
      firstName: 'Lee',
      lastName: 'Applicant',
    });
  });
  council = await login(t.app, 'officer@eastbrook.test');
  applicant = await login(t.app, 'lee@example.test');
});

afterAll(async () => {
  delete process.env[E2E_FIXTURES_ENV];
  await t?.close();
});

describe('the licence application fixture of the browser tests', () => {
  it("completes every check of an application's case, and only then may it be granted", async () => {
    const g = await ok(council, 'POST', '/api/lms/licence-groups/', {
      name: 'Taxi',
      is_published: true,
    });
    const sg = await ok(council, 'POST', '/api/lms/licence-sub-groups/', {
      group: g.id,
      name: 'Private hire driver',
      code: 'PHD',
      is_published: true,
    });
    const def = await ok(council, 'POST', '/api/lms/definitions/', {
      sub_group: sg.id,
      name: 'Private hire driver',
      duration_years: 3,
      fee_pence: 27500,
      requirements: [{ activity_type: 'dbs-enhanced' }, { activity_type: 'basic-details' }],
      is_published: true,
    });
    const portal = await ok(
      council,
      'POST',
      `/api/lms/definitions/${def.id}/application_portals/`,
      {
        title: 'Apply',
        is_open: true,
        fee_pence: 0,
      },
    );
    const applied = await ok(
      applicant,
      'POST',
      `/api/lms/s/application-portals/${portal.id}/apply/`,
      {
        tax_responsibilities_confirmed: true,
      },
    );
    const appId = applied.application_id;
    const grantUrl = `/api/lms/applications/${appId}/grant/`;
    const early = await t.app.inject({
      method: 'POST',
      url: grantUrl,
      headers: council.headers,
      payload: {},
    });
    expect(early.statusCode).toBe(400);

    const anon = await anonymous(t.app);
    const unknown = await t.app.inject({
      method: 'POST',
      url: APPLICATION_CHECKS_COMPLETE_PATH,
      headers: anon.headers,
      payload: { application_id: 999_999 },
    });
    expect(unknown.statusCode).toBe(404);
    const res = await t.app.inject({
      method: 'POST',
      url: APPLICATION_CHECKS_COMPLETE_PATH,
      headers: anon.headers,
      payload: { application_id: appId },
    });
    expect(res.statusCode, res.body).toBe(200);
    const detail = await ok(council, 'GET', `/api/lms/applications/${appId}/`);
    expect(res.json()).toEqual({ case_id: detail.case_id, completed: 2 });
    expect(detail).toMatchObject({ checks_done: 2, checks_total: 2 });

    const granted = await ok(council, 'POST', grantUrl, {});
    expect(granted.state).toBe('granted');
    expect(granted.licence_number).toMatch(/^PHD\/\d{4}\/00001$/);
  });
});
