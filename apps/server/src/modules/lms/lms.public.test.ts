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
import { defaultConfig } from '../../config.js';

// The public council pages' API (issue 32): published data only, across councils, nothing of
// applicants or licences, rate-limited per address.

let t: TestApp;
let officer: Client;
let northgate: number;
let southby: number;
const made: Record<string, number> = {};

const call = (client: Client, method: string, url: string, payload?: unknown) =>
  t.app.inject({
    method: method as 'GET',
    url,
    headers: client.headers,
    ...(payload === undefined ? {} : { payload: payload as Record<string, unknown> }),
  });
const get = (url: string, ip = '203.0.113.7') =>
  t.app.inject({ method: 'GET', url, remoteAddress: ip });

beforeAll(async () => {
  t = await buildTestApp({
    config: {
      jobWorkers: false,
      rateLimits: { ...defaultConfig.rateLimits, publicReadsPerAddress: 40 },
    },
  });
  await t.owner(async (tx) => {
    northgate = (await createCustomer(tx, { name: 'Northgate Council' })).id;
    southby = (await createCustomer(tx, { name: 'Southby Council' })).id;
    await createProductUser(tx, { customerId: northgate, username: 'officer@northgate.test' });
    await createSubjectUser(tx, { customerId: northgate, email: 'applicant@example.test' });
  });
  officer = await login(t.app, 'officer@northgate.test');
  const post = async (key: string, url: string, body: object) => {
    const res = await call(officer, 'POST', url, body);
    expect(res.statusCode, res.body).toBe(201);
    made[key] = res.json().id;
  };
  await post('group', '/api/lms/licence-groups/', {
    name: 'Taxi and private hire',
    is_published: true,
  });
  await post('hidden', '/api/lms/licence-groups/', { name: 'Street trading (draft)' });
  await post('sub', '/api/lms/licence-sub-groups/', {
    group: made.group,
    name: 'Hackney carriage driver',
    code: 'HCD',
    is_published: true,
  });
  await post('draftSub', '/api/lms/licence-sub-groups/', {
    group: made.group,
    name: 'Private hire operator',
    code: 'PHO',
  });
  await post('definition', '/api/lms/definitions/', {
    sub_group: made.sub,
    name: 'Hackney carriage driver (3 years)',
    duration_years: 3,
    fee_pence: 27500,
    requirements: [{ activity_type: 'dbs-enhanced' }],
    documents: ['Medical certificate (Group 2)'],
    is_published: true,
  });
  await post('open', `/api/lms/definitions/${made.definition}/application_portals/`, {
    title: 'Apply for a hackney carriage driver licence',
    is_open: true,
    fee_pence: 27500,
  });
  await post('closed', `/api/lms/definitions/${made.definition}/application_portals/`, {
    title: 'Renew (opens in spring)',
    kind: 'renewal',
    fee_pence: 20000,
  });
});
afterAll(() => t.close());

describe('the public council pages API', () => {
  it('lists councils that publish, and their published groups and sub-groups only', async () => {
    const councils = await get('/api/lms/public/customers/');
    expect(councils.statusCode, councils.body).toBe(200);
    expect(councils.json().results).toEqual([{ id: northgate, name: 'Northgate Council' }]);
    expect((await get(`/api/lms/public/customers/${southby}/`)).statusCode).toBe(404);

    const groups = await get(`/api/lms/public/licence-groups/?customer=${northgate}`);
    expect(groups.json().results).toEqual([
      {
        id: made.group,
        customer: northgate,
        name: 'Taxi and private hire',
        description: '',
      },
    ]);
    expect((await get(`/api/lms/public/licence-groups/${made.hidden}/`)).statusCode).toBe(404);

    const subs = await get(`/api/lms/public/licence-sub-groups/?group=${made.group}`);
    expect(subs.json().results.map((s: { id: number }) => s.id)).toEqual([made.sub]);
    expect((await get(`/api/lms/public/licence-sub-groups/${made.draftSub}/`)).statusCode).toBe(
      404,
    );
  });

  it('shows open portals of published definitions with what the licence needs and costs', async () => {
    const list = await get(`/api/lms/public/application-portals/?sub_group=${made.sub}`);
    expect(list.statusCode, list.body).toBe(200);
    expect(list.json().results).toEqual([
      expect.objectContaining({
        id: made.open,
        customer: northgate,
        customer_name: 'Northgate Council',
        group: made.group,
        sub_group: made.sub,
        kind: 'new',
        kind_label: 'New application',
        duration_text: '3 years',
        fee_pence: 27500,
        fee_display: '£275.00',
        requirements: ['Enhanced DBS check'],
        documents: ['Medical certificate (Group 2)'],
      }),
    ]);
    expect((await get(`/api/lms/public/application-portals/${made.closed}/`)).statusCode).toBe(404);
    // unpublishing the group takes its portals off the public pages
    await call(officer, 'PATCH', `/api/lms/licence-groups/${made.group}/`, {
      is_published: false,
    });
    expect((await get(`/api/lms/public/application-portals/${made.open}/`)).statusCode).toBe(404);
    expect((await get('/api/lms/public/customers/')).json().count).toBe(0);
    await call(officer, 'PATCH', `/api/lms/licence-groups/${made.group}/`, {
      is_published: true,
    });
    expect((await get(`/api/lms/public/application-portals/${made.open}/`)).statusCode).toBe(200);
  });

  it('answers 400 for a filter that is not an id, and only GET', async () => {
    const bad = await get('/api/lms/public/licence-groups/?customer=abc');
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toEqual({ customer: ['Invalid id.'] });
    const post = await t.app.inject({ method: 'POST', url: '/api/lms/public/customers/' });
    expect([404, 405]).toContain(post.statusCode);
  });

  it('refuses an address past its reads in the window (429), not another one', async () => {
    const ip = '198.51.100.9';
    let last = 0;
    for (let i = 0; i < 41; i++) last = (await get('/api/lms/public/customers/', ip)).statusCode;
    expect(last).toBe(429);
    expect((await get('/api/lms/public/customers/', '198.51.100.10')).statusCode).toBe(200);
  });
});
