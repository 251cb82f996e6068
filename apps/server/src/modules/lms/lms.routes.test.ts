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

// Licensing, the council's side (issue 32): every /api/lms/ endpoint through the app, with its
// permissions (lms_definitions.*, lms_licences.*), tenancy, validation and success.

let t: TestApp;
let council: Client;
let viewer: Client;
let otherCouncil: Client;
let subject: Client;
let holder: number;
let otherHolder: number;

const call = (client: Client, method: string, url: string, payload?: unknown) =>
  t.app.inject({
    method: method as 'GET',
    url,
    headers: client.headers,
    ...(payload === undefined ? {} : { payload: payload as Record<string, unknown> }),
  });

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
    holder = (
      await createSubjectUser(tx, {
        customerId: northgate,
        email: 'driver@example.test',
        firstName: 'Dana',
        lastName: 'Driver',
      })
    ).id;
    otherHolder = (await createSubjectUser(tx, { customerId: southby })).id;
  });
  council = await login(t.app, 'officer@northgate.test');
  viewer = await login(t.app, 'viewer@northgate.test');
  otherCouncil = await login(t.app, 'officer@southby.test');
  subject = await login(t.app, 'driver@example.test');
});
afterAll(() => t.close());

describe('licence groups, sub-groups, definitions and application portals', () => {
  let group: number;
  let subGroup: number;
  let definition: number;

  it('a council adds a group, a sub-group, a definition with requirements, and a portal', async () => {
    const g = await call(council, 'POST', '/api/lms/licence-groups/', {
      name: 'Taxi and private hire',
      is_published: true,
    });
    expect(g.statusCode, g.body).toBe(201);
    group = g.json().id;
    expect(g.json()).toMatchObject({ name: 'Taxi and private hire', sub_group_count: 0 });

    const sg = await call(council, 'POST', '/api/lms/licence-sub-groups/', {
      group,
      name: 'Hackney carriage driver',
      code: 'hcd',
      is_published: true,
    });
    expect(sg.statusCode, sg.body).toBe(201);
    subGroup = sg.json().id;
    expect(sg.json()).toMatchObject({ code: 'HCD', group, group_name: 'Taxi and private hire' });

    const d = await call(council, 'POST', '/api/lms/definitions/', {
      sub_group: subGroup,
      name: 'Hackney carriage driver (3 years)',
      duration_years: 3,
      fee_pence: 27500,
      requirements: [{ activity_type: 'dbs-enhanced' }, { activity_type: 'driver-data' }],
      documents: ['Medical certificate (Group 2)'],
      declarations: ['I have read the council policy on convictions.'],
    });
    expect(d.statusCode, d.body).toBe(201);
    definition = d.json().id;
    expect(d.json().requirements.map((r: { activity_type: string }) => r.activity_type)).toEqual([
      'dbs-enhanced',
      'driver-data',
    ]);

    const p = await call(
      council,
      'POST',
      `/api/lms/definitions/${definition}/application_portals/`,
      {
        title: 'Apply for a hackney carriage driver licence',
        is_open: true,
        fee_pence: 27500,
      },
    );
    expect(p.statusCode, p.body).toBe(201);
    expect(p.json()).toMatchObject({ definition, kind: 'new', is_open: true });
    const portals = await call(
      council,
      'GET',
      `/api/lms/definitions/${definition}/application_portals/`,
    );
    expect(portals.statusCode).toBe(200);
    expect(portals.json().count).toBe(1);

    const groups = await call(council, 'GET', '/api/lms/licence-groups/');
    expect(groups.json().results).toEqual([
      expect.objectContaining({ id: group, sub_group_count: 1 }),
    ]);
  });

  it('edits with PUT and PATCH', async () => {
    const patched = await call(council, 'PATCH', `/api/lms/licence-groups/${group}/`, {
      description: 'Drivers, operators and vehicles',
    });
    expect(patched.statusCode, patched.body).toBe(200);
    expect(patched.json().description).toBe('Drivers, operators and vehicles');
    const def = await call(council, 'PATCH', `/api/lms/definitions/${definition}/`, {
      fee_pence: 28000,
    });
    expect(def.statusCode, def.body).toBe(200);
    expect(def.json().fee_pence).toBe(28000);
  });

  it('answers 400 in the spec shape for bad input', async () => {
    const blank = await call(council, 'POST', '/api/lms/licence-groups/', { name: ' ' });
    expect(blank.statusCode).toBe(400);
    expect(blank.json()).toEqual({ name: [expect.any(String)] });
    const badCode = await call(council, 'POST', '/api/lms/licence-sub-groups/', {
      group,
      name: 'Vehicle',
      code: 'no spaces!',
    });
    expect(badCode.statusCode).toBe(400);
    expect(Object.keys(badCode.json())).toEqual(['code']);
    const badDuration = await call(council, 'POST', '/api/lms/definitions/', {
      sub_group: subGroup,
      name: 'Too long',
      duration_years: 99,
      fee_pence: -1,
    });
    expect(badDuration.statusCode).toBe(400);
    expect(Object.keys(badDuration.json()).sort()).toEqual(['duration_years', 'fee_pence']);
    const badType = await call(council, 'POST', '/api/lms/definitions/', {
      sub_group: subGroup,
      name: 'Unknown check',
      duration_years: 1,
      fee_pence: 0,
      requirements: [{ activity_type: 'no-such-check' }],
    });
    expect(badType.statusCode).toBe(400);
  });

  it("keeps one council's set-up from another", async () => {
    for (const url of [
      `/api/lms/licence-groups/${group}/`,
      `/api/lms/licence-sub-groups/${subGroup}/`,
      `/api/lms/definitions/${definition}/`,
    ]) {
      expect((await call(otherCouncil, 'GET', url)).statusCode, url).toBe(404);
      expect((await call(otherCouncil, 'PATCH', url, { name: 'Taken' })).statusCode, url).toBe(404);
    }
    const theirs = await call(otherCouncil, 'GET', '/api/lms/licence-groups/');
    expect(theirs.json().count).toBe(0);
    // a sub-group cannot be hung on another council's group
    const cross = await call(otherCouncil, 'POST', '/api/lms/licence-sub-groups/', {
      group,
      name: 'Stolen',
      code: 'X',
    });
    expect(cross.statusCode).toBe(400);
  });

  it('needs the licensing permissions: 403 for a viewer and a subject, 401 signed out', async () => {
    for (const who of [viewer, subject]) {
      expect((await call(who, 'GET', '/api/lms/licence-groups/')).statusCode).toBe(403);
      expect((await call(who, 'POST', '/api/lms/licence-groups/', { name: 'No' })).statusCode).toBe(
        403,
      );
      expect((await call(who, 'GET', '/api/lms/licences/')).statusCode).toBe(403);
    }
    const anonymous = await t.app.inject({ method: 'GET', url: '/api/lms/licence-groups/' });
    expect([401, 403]).toContain(anonymous.statusCode);
  });
});

describe('licences', () => {
  let definition: number;
  let licence: number;

  beforeAll(async () => {
    const g = await call(council, 'POST', '/api/lms/licence-groups/', { name: 'Vehicles' });
    const sg = await call(council, 'POST', '/api/lms/licence-sub-groups/', {
      group: g.json().id,
      name: 'Private hire driver',
      code: 'PHD',
    });
    const d = await call(council, 'POST', '/api/lms/definitions/', {
      sub_group: sg.json().id,
      name: 'Private hire driver (1 year)',
      duration_years: 1,
      fee_pence: 15000,
    });
    definition = d.json().id;
  });

  it('issues a licence with the next number in the council format and its expiry', async () => {
    const res = await call(council, 'POST', '/api/lms/licences/', {
      definition,
      holder,
      issue_date: '2026-12-01',
      conditions: 'Wear the badge at all times.',
    });
    expect(res.statusCode, res.body).toBe(201);
    licence = res.json().id;
    expect(res.json()).toMatchObject({
      number: 'PHD/2026/00001',
      status: 'active',
      issue_date: '2026-12-01',
      expiry_date: '2027-11-30',
    });
    const second = await call(council, 'POST', '/api/lms/licences/', {
      definition,
      holder,
      issue_date: '2026-12-02',
    });
    expect(second.json().number).toBe('PHD/2026/00002');
    const taken = await call(council, 'POST', '/api/lms/licences/', {
      definition,
      holder,
      number: 'PHD/2026/00001',
    });
    expect(taken.statusCode).toBe(400);
    expect(Object.keys(taken.json())).toEqual(['number']);
  });

  it("refuses another council's holder or definition", async () => {
    const theirHolder = await call(council, 'POST', '/api/lms/licences/', {
      definition,
      holder: otherHolder,
    });
    expect(theirHolder.statusCode).toBe(400);
    expect(Object.keys(theirHolder.json())).toEqual(['holder']);
    const theirDefinition = await call(otherCouncil, 'POST', '/api/lms/licences/', {
      definition,
      holder: otherHolder,
    });
    expect(theirDefinition.statusCode).toBe(400);
    expect((await call(otherCouncil, 'GET', `/api/lms/licences/${licence}/`)).statusCode).toBe(404);
  });

  it('suspends, reinstates and revokes with a reason, each kept in its trail', async () => {
    const noReason = await call(council, 'POST', `/api/lms/licences/${licence}/suspend/`, {});
    expect(noReason.statusCode).toBe(400);
    expect(Object.keys(noReason.json())).toEqual(['reason']);
    const suspended = await call(council, 'POST', `/api/lms/licences/${licence}/suspend/`, {
      reason: 'Awaiting the outcome of a complaint.',
    });
    expect(suspended.statusCode, suspended.body).toBe(200);
    expect(suspended.json().status).toBe('suspended');
    const reinstated = await call(council, 'POST', `/api/lms/licences/${licence}/reinstate/`, {
      reason: 'Complaint not upheld.',
    });
    expect(reinstated.json().status).toBe('active');
    const revoked = await call(council, 'POST', `/api/lms/licences/${licence}/revoke/`, {
      reason: 'Conviction.',
    });
    expect(revoked.json().status).toBe('revoked');
    // a revoked licence is not reinstated
    const again = await call(council, 'POST', `/api/lms/licences/${licence}/reinstate/`, {
      reason: 'Try',
    });
    expect(again.statusCode).toBe(400);
    const detail = await call(council, 'GET', `/api/lms/licences/${licence}/`);
    expect(detail.statusCode).toBe(200);
    expect(
      detail
        .json()
        .events.map((e: { action: string; to_status: string }) => [e.action, e.to_status]),
    ).toEqual([
      ['issue', 'active'],
      ['suspend', 'suspended'],
      ['reinstate', 'active'],
      ['revoke', 'revoked'],
    ]);
  });

  it('lists licences, filtered by status, paginated', async () => {
    const all = await call(council, 'GET', '/api/lms/licences/?page_size=1');
    expect(all.statusCode, all.body).toBe(200);
    expect(all.json().count).toBe(2);
    expect(all.json().results).toHaveLength(1);
    const revoked = await call(council, 'GET', '/api/lms/licences/?status=revoked');
    expect(revoked.json().results.map((l: { id: number }) => l.id)).toEqual([licence]);
    const bad = await call(council, 'GET', '/api/lms/licences/?status=lost');
    expect(bad.statusCode).toBe(400);
    expect((await call(otherCouncil, 'GET', '/api/lms/licences/')).json().count).toBe(0);
  });
});
