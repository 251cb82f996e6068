import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, login } from '../../../test/helpers.js';
import { buildApp } from '../../app.js';
import { DEMO_PASSWORD, seedDemo } from '../../db/seed.js';

// Northgate's licence applications as a fresh `npm start` loads them, read through the API.
let app: FastifyInstance;
let drop: () => Promise<void>;

beforeAll(async () => {
  const t = await createTestDatabase();
  drop = t.drop;
  expect(await seedDemo(t.db)).toBe(true);
  app = await buildApp({ db: t.db });
  await app.ready();
}, 180_000);
afterAll(async () => {
  await app.close();
  await drop();
});

const get = async (headers: Record<string, string>, url: string) => {
  const res = await app.inject({ method: 'GET', url, headers });
  expect(res.statusCode, res.body).toBe(200);
  return res.json();
};

describe('licence applications demo data', () => {
  it('shows Northgate applications in every state, and the register', async () => {
    const officer = await login(app, 'admin@northgate.test', DEMO_PASSWORD);
    const list = await get(officer.headers, '/api/lms/applications/?page_size=50');
    expect(list.results.map((a: { state: string }) => a.state).sort()).toEqual([
      'awaiting_payment',
      'granted',
      'in_progress',
      'more_info_requested',
      'refused',
    ]);
    const granted = list.results.find((a: { state: string }) => a.state === 'granted');
    expect(granted.licence_number).not.toBeNull();
    const asked = list.results.find((a: { state: string }) => a.state === 'more_info_requested');
    expect(asked.info_request).toMatch(/penalty points/);
    const refused = list.results.find((a: { state: string }) => a.state === 'refused');
    const detail = await get(officer.headers, `/api/lms/applications/${refused.id}/`);
    expect(detail.register_matches.map((e: { kind: string }) => e.kind)).toContain('revocation');
    const register = await get(officer.headers, '/api/lms/register/');
    expect(register.results.map((e: { kind: string }) => e.kind).sort()).toEqual([
      'refusal',
      'revocation',
      'suspension',
    ]);
  });

  it('gives the demo subject an application in progress at Northgate, with its case', async () => {
    const subject = await login(app, 'subject@example.test', DEMO_PASSWORD);
    const mine = await get(subject.headers, '/api/lms/s/applications/');
    expect(mine.results).toHaveLength(1);
    expect(mine.results[0]).toMatchObject({
      state: 'in_progress',
      customer_name: 'Northgate Council',
    });
    expect(mine.results[0].next_url).toBe(`/s/case-portal/${mine.results[0].case_id}`);
    const portals = await get(subject.headers, '/api/lms/s/application-portals/');
    expect(
      portals.results.filter((p: { my_application: unknown }) => p.my_application !== null),
    ).toHaveLength(1);
  });
});

describe('check settings and update service cycles demo data', () => {
  it("shows the driver licences' enhanced DBS settings", async () => {
    const officer = await login(app, 'admin@northgate.test', DEMO_PASSWORD);
    const defs = await get(officer.headers, '/api/lms/definitions/?page_size=50');
    const hcd = defs.results.find((d: { name: string }) => d.name.startsWith('Hackney carriage'));
    const dbs = hcd.requirements.find(
      (r: { activity_type: string }) => r.activity_type === 'dbs-enhanced',
    );
    expect(dbs.config).toEqual({
      purpose: 'licence',
      employment_sector: 'taxi-private-hire',
      position: 'Licensed driver',
    });
  });

  it("checks Daniel's certificate on the update service: new information flags his licence", async () => {
    await app.deps.jobs.settle();
    const officer = await login(app, 'admin@northgate.test', DEMO_PASSWORD);
    const found = await get(officer.headers, '/api/flags/?page_size=100');
    const messages = found.results.map((f: { message: string }) => f.message);
    expect(
      messages.some((m: string) => /new information on certificate 400000004021/.test(m)),
    ).toBe(true);
    // and his licence shows the check and its answer
    const held = await get(officer.headers, '/api/lms/licences/?q=okafor');
    const daniel = held.results.find((l: { status: string }) => l.status === 'active');
    const licence = await get(officer.headers, `/api/lms/licences/${daniel.id}/`);
    expect(licence.update_service).toMatchObject({
      state: 'ca-complete',
      certificate_status: 'NEW_INFO',
      new_information: true,
    });
    const others = await get(officer.headers, '/api/lms/licences/?status=suspended');
    expect(others.results[0].update_service).toBeNull();
  });

  it("renews Daniel's active licence from his record on the open renewal portal, with a tax check code", async () => {
    const officer = await login(app, 'admin@northgate.test', DEMO_PASSWORD);
    const held = await get(officer.headers, '/api/lms/licences/?q=okafor');
    const daniel = held.results.find((l: { status: string }) => l.status === 'active');
    const renew = (code: string) =>
      app.inject({
        method: 'POST',
        url: `/api/lms/licences/${daniel.id}/renew/`,
        headers: officer.headers,
        payload: { tax_check_code: code },
      });
    // the demo's expired code stops the renewal with HMRC's answer
    const expired = await renew('E00000001');
    expect(expired.statusCode, expired.body).toBe(400);
    expect(expired.json().tax_check_code[0]).toMatch(/expired/);
    const res = await renew('HMRC12345');
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json()).toMatchObject({
      kind: 'renewal',
      renews_licence: daniel.id,
      portal_title: 'Renew a hackney carriage driver licence',
    });
  });
});
