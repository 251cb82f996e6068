import { TOTP_REQUIRED_NOTICE } from '@kestrel/domain';
import { and, eq } from 'drizzle-orm';
import { generate } from 'otplib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  buildTestApp,
  type Client,
  createCustomer,
  createProductUser,
  follow,
  login,
  type TestApp,
} from '../../../test/helpers.js';
import { auditActions } from '../../platform/tables/audit.table.js';
import { totpGuardrails } from '../../platform/totp.js';
import { pricebookPrices, pricebooks } from '../pricebooks/pricebooks.table.js';
import { presentProductUser } from '../users/user.presenter.js';
import { customers } from './customers.table.js';

let t: TestApp;
let acme: number;
let other: number;
let admin: Client;
let viewer: Client;
let otherAdmin: Client;

const call = (client: Client, method: 'GET' | 'PATCH', payload?: Record<string, unknown>) =>
  t.app.inject({
    method,
    url: '/api/customer-account/',
    headers: client.headers,
    ...(payload === undefined ? {} : { payload }),
  });

beforeAll(async () => {
  t = await buildTestApp({ config: { jobWorkers: false } });
  await t.owner(async (tx) => {
    acme = (await createCustomer(tx, { name: 'Acme', entitlements: ['cycles'] })).id;
    other = (await createCustomer(tx, { name: 'Other' })).id;
    await createProductUser(tx, { customerId: acme, username: 'admin@acme.test' });
    await createProductUser(tx, { customerId: acme, username: 'no-totp@acme.test' });
    await createProductUser(tx, {
      customerId: acme,
      username: 'viewer@acme.test',
      roles: ['viewer'],
    });
    await createProductUser(tx, { customerId: other, username: 'admin@other.test' });
    const [book] = await tx
      .insert(pricebooks)
      .values({ customerId: acme, name: 'Standard 2026', validFrom: '2020-01-01', invoiced: true })
      .returning();
    if (!book) throw new Error('no pricebook');
    await tx.insert(pricebookPrices).values({
      customerId: acme,
      pricebookId: book.id,
      activityType: 'dbs-basic',
      level: 'online',
      amountPence: 2350,
    });
  });
  admin = await login(t.app, 'admin@acme.test');
  viewer = await login(t.app, 'viewer@acme.test');
  otherAdmin = await login(t.app, 'admin@other.test');
});

afterAll(() => t.close());

describe('/api/customer-account/', () => {
  it('shows the organisation, its entitlements, policy and the pricebook in force', async () => {
    const res = await call(admin, 'GET');
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body).toMatchObject({
      id: acme,
      name: 'Acme',
      brand: 'kestrel',
      brand_name: 'Kestrel Checks',
      demo_mode: false,
      require_totp: false,
      entitlements: [{ entitlement: 'cycles', label: 'Billing cycles and subscriptions' }],
      pricebook: { name: 'Standard 2026', invoiced: true, valid_to: null },
    });
    const basic = body.pricebook.prices.filter(
      (p: { activity_type: string }) => p.activity_type === 'dbs-basic',
    );
    expect(basic).toEqual([
      expect.objectContaining({ level: 'online', amount_pence: 2350, amount_display: '£23.50' }),
      expect.objectContaining({
        level: 'paper-certificate',
        amount_pence: null,
        amount_display: 'No price set',
      }),
    ]);
    // another organisation: its own, no pricebook
    const theirs = (await call(otherAdmin, 'GET')).json();
    expect(theirs).toMatchObject({ id: other, name: 'Other', pricebook: null, entitlements: [] });
  });

  it('needs customers.view_customer to read and customers.change_customer to change', async () => {
    expect((await call(viewer, 'GET')).statusCode).toBe(403);
    expect((await call(viewer, 'PATCH', { name: 'Hijack' })).statusCode).toBe(403);
    const anon = await t.app.inject({ method: 'GET', url: '/api/customer-account/' });
    expect([401, 403]).toContain(anon.statusCode);
  });

  it('refuses bad details field by field', async () => {
    const res = await call(admin, 'PATCH', {
      name: '',
      contact_email: 'not-an-email',
      postcode: 'nope',
    });
    expect(res.statusCode).toBe(400);
    expect(Object.keys(res.json())).toEqual(
      expect.arrayContaining(['name', 'contact_email', 'postcode']),
    );
    expect(res.json().name).toEqual(['Required']);
    // what operations decide is not the organisation's to change
    expect((await call(admin, 'PATCH', { demo_mode: true })).statusCode).toBe(400);
  });

  it('changes the details and the policy of its own organisation only, audited', async () => {
    const res = await call(admin, 'PATCH', {
      name: 'Acme Care',
      line_one: '1 High Street',
      town: 'Leeds',
      postcode: 'ls1 4ap',
      contact_phone: '+447911123456',
      require_totp: true,
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      name: 'Acme Care',
      line_one: '1 High Street',
      postcode: 'LS1 4AP',
      contact_phone: '+447911123456',
      require_totp: true,
    });
    const rows = await t.owner((tx) => tx.select().from(customers));
    expect(rows.find((c) => c.id === other)).toMatchObject({ name: 'Other', requireTotp: false });
    const audit = await t.owner((tx) =>
      tx
        .select()
        .from(auditActions)
        .where(
          and(
            eq(auditActions.contentType, 'customers.customer'),
            eq(auditActions.objectId, String(acme)),
          ),
        ),
    );
    expect(audit).toHaveLength(1);
    expect(audit[0]).toMatchObject({ verb: 'updated', customerId: acme, actorName: 'Test User' });
    expect(audit[0]?.changes).toMatchObject({
      name: ['Acme', 'Acme Care'],
      require_totp: [false, true],
    });
    // the other organisation's administrator still sees theirs unchanged
    expect((await call(otherAdmin, 'GET')).json()).toMatchObject({ name: 'Other' });
  });

  it('sends a user without TOTP to set it up once the organisation requires it', async () => {
    await t.owner((tx) =>
      tx.update(customers).set({ requireTotp: true }).where(eq(customers.id, acme)),
    );
    const user = await login(t.app, 'no-totp@acme.test');
    const me = await t.app.inject({ method: 'GET', url: '/api/user/', headers: user.headers });
    expect(me.json()).toMatchObject({ totp_enabled: false, totp_setup_required: true });
    const elsewhere = await t.app.inject({
      method: 'GET',
      url: '/api/user/',
      headers: otherAdmin.headers,
    });
    expect(elsewhere.json()).toMatchObject({ totp_setup_required: false });

    // the server, not only the screens, keeps the organisation's data until TOTP is set up
    const get = (client: Client, url: string) =>
      t.app.inject({ method: 'GET', url, headers: client.headers });
    const refused = await get(user, '/api/customer-account/');
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toEqual({ detail: TOTP_REQUIRED_NOTICE });
    expect((await get(user, '/api/cases/')).statusCode).toBe(403);
    expect((await get(user, '/api/countries/')).statusCode).toBe(200);
    expect((await get(otherAdmin, '/api/customer-account/')).statusCode).toBe(200);
    const generated = await t.app.inject({
      method: 'PATCH',
      url: '/api/user/totp-generate/',
      headers: user.headers,
    });
    expect(generated.statusCode).toBe(200);
    const secret: string = generated.json().secret;
    const validated = await t.app.inject({
      method: 'PATCH',
      url: '/api/user/totp-validate/',
      headers: user.headers,
      payload: {
        totp: await generate({
          secret,
          epoch: Math.floor(t.clock.now().getTime() / 1000),
          guardrails: totpGuardrails,
        }),
      },
    });
    expect(validated.statusCode, validated.body).toBe(200);
    const withTotp = follow(user, validated);
    expect((await get(withTotp, '/api/customer-account/')).statusCode).toBe(200);

    await t.owner((tx) =>
      tx.update(customers).set({ requireTotp: false }).where(eq(customers.id, acme)),
    );
    const after = await t.app.inject({
      method: 'GET',
      url: '/api/user/',
      headers: withTotp.headers,
    });
    expect(after.json()).toMatchObject({ totp_setup_required: false });
  });
});

describe('totp_setup_required', () => {
  const row = {
    id: 1,
    firstName: 'A',
    lastName: 'B',
    username: 'a',
    email: 'a@b.test',
    jobTitle: '',
    darkMode: false,
    notifications: true,
    avatar: null,
    termsAgreedAt: null,
  };
  const extra = {
    roles: [],
    customer: null,
    permissions: [],
    entitlements: [],
    requireTotp: true,
  };
  it('is on only for a customer user without TOTP whose organisation requires it', () => {
    const with2fa = { ...row, totpEnabled: true };
    const without = { ...row, totpEnabled: false };
    type Row = Parameters<typeof presentProductUser>[0];
    const as = (r: typeof with2fa): Row => ({ ...({} as Row), ...r });
    expect(presentProductUser(as(without), { ...extra, isOps: false }).totp_setup_required).toBe(
      true,
    );
    expect(presentProductUser(as(with2fa), { ...extra, isOps: false }).totp_setup_required).toBe(
      false,
    );
    expect(presentProductUser(as(without), { ...extra, isOps: true }).totp_setup_required).toBe(
      false,
    );
    expect(
      presentProductUser(as(without), { ...extra, isOps: false, requireTotp: false })
        .totp_setup_required,
    ).toBe(false);
  });
});
