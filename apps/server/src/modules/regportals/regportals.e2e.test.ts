import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  anonymous,
  buildTestApp,
  createCustomer,
  createProcess,
  type TestApp,
} from '../../../test/helpers.js';
import { E2E_FIXTURES_ENV } from '../e2e-fixtures/e2e-fixtures.routes.js';
import { segments } from '../segments/segments.table.js';
import {
  REGISTRATION_EXPIRY_PATH,
  REGISTRATION_LINK_PATH,
  REGISTRATION_PAYMENT_PATH,
} from './regportals.e2e.js';
import { registrationPortals } from './regportals.table.js';

let t: TestApp;
let segment: number;

beforeAll(async () => {
  process.env[E2E_FIXTURES_ENV] = '1';
  t = await buildTestApp({ config: { jobWorkers: false } });
  await t.owner(async (tx) => {
    const acme = (await createCustomer(tx, { name: 'Acme', entitlements: ['regportals'] })).id;
    const process = (await createProcess(tx, { customerId: acme, requirements: ['dbs-update'] }))
      .id;
    const [s] = await tx.insert(segments).values({ customerId: acme, name: 'North' }).returning();
    segment = s?.id ?? 0;
    await tx.insert(registrationPortals).values({
      customerId: acme,
      processId: process,
      segmentId: segment,
      path: 'fixtures',
      title: 'Fixtures',
      askEmail: 'required',
      askDob: 'optional',
      askPhone: 'optional',
    });
  });
});

afterAll(async () => {
  delete process.env[E2E_FIXTURES_ENV];
  await t?.close();
});

describe('the registration fixtures of the browser tests', () => {
  it('read the emailed confirmation link, run the expiry at a given now', async () => {
    const anon = await anonymous(t.app);
    const url = `/api/public/self-initiate/${segment}/fixtures/`;
    const res = await t.app.inject({
      method: 'POST',
      url,
      headers: anon.headers,
      payload: { first_name: 'Ada', last_name: 'Byron', email: 'ada@fixtures.test' },
    });
    expect(res.statusCode, res.body).toBe(201);
    await t.settle();
    const link = await t.app.inject({
      method: 'GET',
      url: `${REGISTRATION_LINK_PATH}?email=ada@fixtures.test`,
    });
    expect(link.statusCode, link.body).toBe(200);
    expect(link.json().path).toMatch(new RegExp(`^/self-initiate/${segment}/fixtures\\?confirm=`));
    const none = await t.app.inject({
      method: 'GET',
      url: `${REGISTRATION_LINK_PATH}?email=nobody@fixtures.test`,
    });
    expect(none.statusCode).toBe(404);
    const pay = await t.app.inject({
      method: 'POST',
      url: REGISTRATION_PAYMENT_PATH,
      headers: anon.headers,
      payload: { registration_id: res.json().registration_id, outcome: 'paid' },
    });
    // not awaiting payment: nothing changes
    expect(pay.json()).toEqual({ state: 'started', case_id: null });
    const later = new Date(t.clock.now().getTime() + 49 * 3_600_000).toISOString();
    const expiry = await t.app.inject({
      method: 'POST',
      url: REGISTRATION_EXPIRY_PATH,
      headers: anon.headers,
      payload: { now: later },
    });
    expect(expiry.json()).toEqual({ expired: 1 });
  });
});
