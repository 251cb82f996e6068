import {
  REG_PORTAL_UNAVAILABLE_MESSAGES,
  REGISTRATION_EXPIRY_HOURS,
  REGISTRATION_MESSAGES,
} from '@kestrel/domain';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  anonymous,
  buildTestApp,
  type Client,
  createCustomer,
  createProcess,
  createProductUser,
  createSubjectUser,
  login,
  MemoryMailer,
  TEST_PASSWORD,
  type TestApp,
} from '../../../test/helpers.js';
import { defaultConfig, REGISTRATION_RATE_LIMITS } from '../../config.js';
import { createRole } from '../../db/factories.js';
import { jobActor } from '../../jobs/service-job.js';
import { runAsSystem, runInTenant } from '../../platform/service-context.js';
import { hashToken } from '../../platform/tokens.js';
import { cases } from '../cases/cases.table.js';
import { customerEntitlements } from '../customers/customers.table.js';
import { paymentIntents } from '../payments/payments.table.js';
import { pricebookPrices, pricebooks } from '../pricebooks/pricebooks.table.js';
import { segments, segmentUsers } from '../segments/segments.table.js';
import { subjects } from '../subjects/subjects.table.js';
import { registrationCaseJob } from './case-job.js';
import { runRegistrationExpiry } from './expiry-job.js';
import { markRegistrationPaid, settleRegistrationPayment } from './registrations.service.js';
import { seedRegportalsDemo } from './regportals.seed.js';
import { portalRegistrationEvents, portalRegistrations } from './regportals.table.js';

let t: TestApp;
const mailer = new MemoryMailer();
let acme: number;
let other: number;
let admin: Client;
let viewer: Client;
let plain: Client;
let theirs: Client;
let care: number;
let segment: number;
let theirSegment: number;
let theirProcess: number;
let plainProcess: number;
let plainSegment: number;

const HOUR = 3_600_000;
const PER_PORTAL = 12;
const STRONG = 'a long and unusual passphrase 42';

const call = (client: Client, method: string, url: string, payload?: unknown) =>
  t.app.inject({
    method: method as 'GET',
    url,
    headers: client.headers,
    ...(payload === undefined ? {} : { payload: payload as Record<string, unknown> }),
  });

const portalsUrl = (process: number) => `/api/processes/${process}/registration-portals/`;

/** The token of the confirmation email to `to` that works now (the registration's hash). */
async function tokenFor(to: string): Promise<string> {
  await t.settle();
  const hashes = await t.owner((tx) =>
    tx
      .select({ h: portalRegistrations.tokenHash })
      .from(portalRegistrations)
      .where(eq(portalRegistrations.email, to)),
  );
  const tokens = mailer.sent
    .filter((x) => x.to === to)
    .map((x) => x.text.match(/confirm=([^\s&]+)/)?.[1])
    .filter((x): x is string => x !== undefined)
    .map(decodeURIComponent);
  const token = tokens.find((x) => hashes.some((r) => r.h === hashToken(x)));
  if (!token) throw new Error(`no confirmation email to ${to}`);
  return token;
}

async function makePortal(body: Record<string, unknown>) {
  const res = await call(admin, 'POST', portalsUrl(care), {
    segment_id: segment,
    title: 'Volunteers',
    ...body,
  });
  expect(res.statusCode, res.body).toBe(201);
  return res.json() as { id: number; path: string; segment_id: number; public_link: string };
}

const person = (email: string) => ({
  first_name: 'Ada',
  last_name: 'Lovelace',
  email,
  dob: '1990-02-03',
  phone: '07911 123456',
});

beforeAll(async () => {
  t = await buildTestApp({
    config: {
      jobWorkers: false,
      // a portal's limit small enough to reach in a test (the per-address one as configured)
      rateLimits: { ...defaultConfig.rateLimits, registrationsPerPortal: PER_PORTAL },
    },
    mailer,
  });
  await t.owner(async (tx) => {
    acme = (await createCustomer(tx, { name: 'Acme', entitlements: ['regportals'] })).id;
    other = (await createCustomer(tx, { name: 'Other', entitlements: ['regportals'] })).id;
    const without = (await createCustomer(tx, { name: 'Plain' })).id;
    await createProductUser(tx, { customerId: acme, username: 'admin@acme.test' });
    await createProductUser(tx, {
      customerId: acme,
      username: 'viewer@acme.test',
      roles: ['viewer'],
    });
    await createProductUser(tx, { customerId: without, username: 'admin@plain.test' });
    await createProductUser(tx, { customerId: other, username: 'admin@other.test' });
    care = (
      await createProcess(tx, { customerId: acme, name: 'Care', requirements: ['dbs-update'] })
    ).id;
    theirProcess = (await createProcess(tx, { customerId: other })).id;
    plainProcess = (await createProcess(tx, { customerId: without })).id;
    const seg = async (customerId: number, name: string) => {
      const [s] = await tx.insert(segments).values({ customerId, name }).returning();
      return s?.id ?? 0;
    };
    segment = await seg(acme, 'North');
    theirSegment = await seg(other, 'Theirs');
    plainSegment = await seg(without, 'Plain');
    const [pb] = await tx
      .insert(pricebooks)
      .values({ customerId: acme, name: 'Prices', validFrom: '2000-01-01', invoiced: true })
      .returning();
    await tx.insert(pricebookPrices).values({
      customerId: acme,
      pricebookId: pb?.id ?? 0,
      activityType: 'dbs-update',
      level: '',
      amountPence: 1300,
    });
  });
  admin = await login(t.app, 'admin@acme.test');
  viewer = await login(t.app, 'viewer@acme.test');
  plain = await login(t.app, 'admin@plain.test');
  theirs = await login(t.app, 'admin@other.test');
});

afterAll(async () => {
  await t?.close();
});

describe('registration portals of a process', () => {
  it('needs the regportals entitlement (403 without) and the processes permissions', async () => {
    const none = await call(plain, 'GET', portalsUrl(plainProcess));
    expect(none.statusCode).toBe(403);
    const add = await call(plain, 'POST', portalsUrl(plainProcess), {
      segment_id: plainSegment,
      path: 'x',
      title: 'X',
    });
    expect(add.statusCode).toBe(403);
    expect((await call(viewer, 'GET', portalsUrl(care))).statusCode).toBe(200);
    const refused = await call(viewer, 'POST', portalsUrl(care), {
      segment_id: segment,
      path: 'viewer',
      title: 'V',
    });
    expect(refused.statusCode).toBe(403);
  });

  it('creates, reads, changes and deletes a portal; the path is unique per segment', async () => {
    const p = await makePortal({ path: 'crud-portal' });
    expect(p).toMatchObject({
      path: 'crud-portal',
      public_link: `/self-initiate/${segment}/crud-portal`,
      segment_name: 'North',
      payer: 'customer',
      ask_email: 'required',
      ask_dob: 'required',
      ask_phone: 'optional',
      open: true,
      registration_count: 0,
    });
    const again = await call(admin, 'POST', portalsUrl(care), {
      segment_id: segment,
      path: 'crud-portal',
      title: 'Again',
    });
    expect(again.statusCode).toBe(400);
    expect(again.json()).toEqual({ path: [REGISTRATION_MESSAGES.pathTaken] });
    const list = await call(admin, 'GET', portalsUrl(care));
    expect(list.json().results.map((x: { id: number }) => x.id)).toContain(p.id);
    const patched = await call(admin, 'PATCH', `${portalsUrl(care)}${p.id}/`, {
      open: false,
      title: 'Closed now',
    });
    expect(patched.statusCode).toBe(200);
    expect(patched.json()).toMatchObject({ open: false, title: 'Closed now' });
    expect((await call(admin, 'GET', `${portalsUrl(care)}${p.id}/`)).json().title).toBe(
      'Closed now',
    );
    expect((await call(admin, 'DELETE', `${portalsUrl(care)}${p.id}/`)).statusCode).toBe(204);
    expect((await call(admin, 'GET', `${portalsUrl(care)}${p.id}/`)).statusCode).toBe(404);
  });

  it('validates in the spec shape; the segment must be the customer’s', async () => {
    const bad = await call(admin, 'POST', portalsUrl(care), {
      segment_id: theirSegment,
      path: 'Bad Path!',
      title: '',
    });
    expect(bad.statusCode).toBe(400);
    expect(Object.keys(bad.json()).sort()).toEqual(['path', 'title']);
    const seg = await call(admin, 'POST', portalsUrl(care), {
      segment_id: theirSegment,
      path: 'their-segment',
      title: 'T',
    });
    expect(seg.statusCode).toBe(400);
    expect(Object.keys(seg.json())).toEqual(['segment_id']);
  });

  it("keeps to the tenant: another customer's process and portal are 404", async () => {
    expect((await call(admin, 'GET', portalsUrl(theirProcess))).statusCode).toBe(404);
    const res = await call(theirs, 'POST', portalsUrl(theirProcess), {
      segment_id: theirSegment,
      path: 'their-portal',
      title: 'Theirs',
    });
    expect(res.statusCode).toBe(201);
    const id = res.json().id;
    expect((await call(admin, 'GET', `${portalsUrl(theirProcess)}${id}/`)).statusCode).toBe(404);
    expect((await call(admin, 'GET', `${portalsUrl(care)}${id}/`)).statusCode).toBe(404);
    expect(
      (await call(admin, 'PATCH', `${portalsUrl(care)}${id}/`, { open: false })).statusCode,
    ).toBe(404);
  });
});

describe('self-initiate (customer pays)', () => {
  it('shows the portal, registers, confirms with a password, signs in and opens the case', async () => {
    const p = await makePortal({ path: 'customer-pays', ask_phone: 'required' });
    const anon = await anonymous(t.app);
    const url = `/api/public/self-initiate/${segment}/customer-pays/`;
    const view = await call(anon, 'GET', url);
    expect(view.statusCode).toBe(200);
    expect(view.json()).toMatchObject({
      title: 'Volunteers',
      customer_name: 'Acme',
      process_name: 'Care',
      payer: 'customer',
      price_pence: null,
      ask_phone: 'required',
      unavailable: null,
    });
    expect(view.json().checks.length).toBe(1);
    const missing = await call(anon, 'POST', url, { ...person('ada@example.test'), phone: '' });
    expect(missing.statusCode).toBe(400);
    const noPhone = await call(anon, 'POST', url, {
      first_name: 'Ada',
      last_name: 'Lovelace',
      email: 'ada@example.test',
      dob: '1990-02-03',
    });
    expect(noPhone.json()).toEqual({ phone: ['Required'] });
    const res = await call(anon, 'POST', url, person('Ada@Example.test'));
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json()).toMatchObject({ state: 'started', existing: false, next_url: null });
    const id = res.json().registration_id;

    // the same person again: the same registration, the confirmation sent again
    const again = await call(anon, 'POST', url, person('ada@example.test'));
    expect(again.statusCode).toBe(200);
    expect(again.json()).toMatchObject({ registration_id: id, existing: true, state: 'started' });
    const token = await tokenFor('ada@example.test');

    const weak = await call(anon, 'POST', `${url}confirm/`, { token, password: 'short' });
    expect(weak.statusCode).toBe(400);
    expect(Object.keys(weak.json())).toEqual(['password']);
    const wrong = await call(anon, 'POST', `${url}confirm/`, {
      token: 'nope',
      password: STRONG,
    });
    expect(wrong.json()).toEqual({ token: [REGISTRATION_MESSAGES.invalidToken] });

    const ok = await call(anon, 'POST', `${url}confirm/`, { token, password: STRONG });
    expect(ok.statusCode, ok.body).toBe(200);
    const out = ok.json();
    expect(out).toMatchObject({ registration_id: id, state: 'case_created', existing: false });
    expect(out.next_url).toMatch(/^\/s\/case-portal\/\d+$/);
    expect(ok.cookies.some((c) => c.name === 'kestrel_session')).toBe(true);
    // signed in as the subject
    const cookie = ok.cookies.find((c) => c.name === 'kestrel_session');
    const session = await t.app.inject({
      method: 'GET',
      url: '/api/accounts/check-session/',
      headers: { cookie: `kestrel_session=${cookie?.value}` },
    });
    expect(session.json().user_type).toBe('SubjectUser');
    // and with the password
    await login(t.app, 'ada@example.test', STRONG);

    // the link works once
    const twice = await call(anon, 'POST', `${url}confirm/`, { token, password: STRONG });
    expect(twice.statusCode).toBe(400);
    // registering again answers the registration with its case, never a second case
    const third = await call(anon, 'POST', url, person('ada@example.test'));
    expect(third.json()).toMatchObject({
      registration_id: id,
      existing: true,
      state: 'case_created',
    });
    const caseId = Number(out.next_url.split('/').pop());
    const theCases = await t.owner((tx) =>
      tx
        .select()
        .from(cases)
        .where(and(eq(cases.customerId, acme), eq(cases.processId, care))),
    );
    expect(theCases.filter((c) => c.id === caseId)).toHaveLength(1);
    const subj = await t.owner((tx) =>
      tx
        .select()
        .from(subjects)
        .where(eq(subjects.id, theCases[0]?.subjectId ?? 0)),
    );
    expect(subj[0]?.email).toBe('ada@example.test');

    // staff see it with its events
    const detail = await call(admin, 'GET', `/api/portal-registrations/${id}/`);
    expect(detail.statusCode).toBe(200);
    expect(detail.json()).toMatchObject({
      id,
      reg_portal_id: p.id,
      state: 'case_created',
      case_id: caseId,
      email: 'ada@example.test',
    });
    expect(detail.json().events.map((e: { state: string }) => e.state)).toEqual([
      'started',
      'email_confirmed',
      'case_created',
    ]);
  });

  it('a closed, full or past-closing-date portal answers 409 with its message', async () => {
    const p = await makePortal({ path: 'limited', registration_limit: 1 });
    const anon = await anonymous(t.app);
    const url = `/api/public/self-initiate/${segment}/limited/`;
    expect((await call(anon, 'POST', url, person('one@example.test'))).statusCode).toBe(201);
    const full = await call(anon, 'POST', url, person('two@example.test'));
    expect(full.statusCode).toBe(409);
    expect(full.json()).toEqual({ detail: REG_PORTAL_UNAVAILABLE_MESSAGES.full });
    expect((await call(anon, 'GET', url)).json().unavailable).toBe('full');
    // the one registered still gets theirs back
    expect((await call(anon, 'POST', url, person('one@example.test'))).statusCode).toBe(200);
    await call(admin, 'PATCH', `${portalsUrl(care)}${p.id}/`, {
      registration_limit: null,
      open: false,
    });
    const closed = await call(anon, 'POST', url, person('two@example.test'));
    expect(closed.json()).toEqual({ detail: REG_PORTAL_UNAVAILABLE_MESSAGES.closed });
    await call(admin, 'PATCH', `${portalsUrl(care)}${p.id}/`, {
      open: true,
      closes_on: '2000-01-01',
    });
    const past = await call(anon, 'POST', url, person('two@example.test'));
    expect(past.statusCode).toBe(409);
    expect(past.json()).toEqual({ detail: REG_PORTAL_UNAVAILABLE_MESSAGES.past_closing_date });
  });

  it('a portal that does not exist is 404', async () => {
    const anon = await anonymous(t.app);
    expect(
      (await call(anon, 'GET', `/api/public/self-initiate/${segment}/nothing/`)).statusCode,
    ).toBe(404);
    expect(
      (await call(anon, 'GET', `/api/public/self-initiate/${theirSegment}/customer-pays/`))
        .statusCode,
    ).toBe(404);
  });
});

describe('self-initiate (subject pays)', () => {
  it('shows the price; confirming waits for the payment; its success opens one case', async () => {
    await makePortal({ path: 'subject-pays', payer: 'subject' });
    const anon = await anonymous(t.app);
    const url = `/api/public/self-initiate/${segment}/subject-pays/`;
    const view = await call(anon, 'GET', url);
    expect(view.json()).toMatchObject({ payer: 'subject', price_pence: 1300, currency: 'gbp' });
    const res = await call(anon, 'POST', url, person('payer@example.test'));
    expect(res.statusCode).toBe(201);
    const id = res.json().registration_id;
    const token = await tokenFor('payer@example.test');
    const ok = await call(anon, 'POST', `${url}confirm/`, { token, password: STRONG });
    expect(ok.statusCode, ok.body).toBe(200);
    expect(ok.json()).toMatchObject({ registration_id: id, state: 'awaiting_payment' });
    const mail = { publicUrl: 'http://localhost' };
    const settle = () =>
      runInTenant(t.app.deps, jobActor(acme), (ctx) =>
        settleRegistrationPayment(ctx, mail, id, 'paid'),
      );
    const first = await settle();
    const second = await settle();
    expect(first.state).toBe('case_created');
    expect(second.caseId).toBe(first.caseId);
    const events = await t.owner((tx) =>
      tx
        .select()
        .from(portalRegistrationEvents)
        .where(eq(portalRegistrationEvents.registrationId, id)),
    );
    expect(events.map((e) => e.state)).toEqual([
      'started',
      'email_confirmed',
      'awaiting_payment',
      'awaiting_payment',
      'paid',
      'case_created',
    ]);
    const subj = await t.owner((tx) =>
      tx
        .select()
        .from(cases)
        .where(eq(cases.id, first.caseId ?? 0)),
    );
    expect(subj).toHaveLength(1);
  });
});

describe('a paid registration settled by the system (the payment webhook)', () => {
  it('moves to paid there and the registration-case job opens its case once', async () => {
    await makePortal({ path: 'webhook-pays', payer: 'subject' });
    const anon = await anonymous(t.app);
    const url = `/api/public/self-initiate/${segment}/webhook-pays/`;
    const id = (await call(anon, 'POST', url, person('hook@example.test'))).json().registration_id;
    const token = await tokenFor('hook@example.test');
    const ok = await call(anon, 'POST', `${url}confirm/`, { token, password: STRONG });
    expect(ok.json().state).toBe('awaiting_payment');
    const settle = () =>
      runAsSystem(t.app.deps, async (ctx) => {
        if (await markRegistrationPaid(ctx, id, 'paid')) {
          await ctx.enqueue(registrationCaseJob(acme, id));
        }
      });
    await settle();
    await settle();
    await t.settle();
    const [row] = await t.owner((tx) =>
      tx.select().from(portalRegistrations).where(eq(portalRegistrations.id, id)),
    );
    expect(row?.state).toBe('case_created');
    const made = await t.owner((tx) =>
      tx
        .select()
        .from(cases)
        .where(eq(cases.id, row?.caseId ?? 0)),
    );
    expect(made).toHaveLength(1);
    const events = await t.owner((tx) =>
      tx
        .select()
        .from(portalRegistrationEvents)
        .where(eq(portalRegistrationEvents.registrationId, id)),
    );
    expect(events.filter((e) => e.state === 'case_created')).toHaveLength(1);
  });
});

describe('self-initiate (subject pays through the payment portal)', () => {
  it('pays with the simulator card: paid, then one case; the expiry cancels an unpaid intent', async () => {
    await makePortal({ path: 'portal-pays', payer: 'subject' });
    const anon = await anonymous(t.app);
    const url = `/api/public/self-initiate/${segment}/portal-pays/`;
    const id = (await call(anon, 'POST', url, person('card@example.test'))).json().registration_id;
    const token = await tokenFor('card@example.test');
    const ok = await call(anon, 'POST', `${url}confirm/`, { token, password: STRONG });
    expect(ok.json()).toMatchObject({ registration_id: id, state: 'awaiting_payment' });
    const next: string = ok.json().next_url;
    expect(next).toMatch(/^\/payment-portal\/pit_/);
    // the same person again is sent back to the same payment
    const again = await call(anon, 'POST', url, person('card@example.test'));
    expect(again.json()).toMatchObject({ existing: true, next_url: next });
    await t.settle();
    // once paid, the payment portal's Continue goes to the portal's signed-in page (its case)
    const link = new URL(next, 'http://x');
    expect(link.searchParams.get('next')).toMatch(/^\/s\/self-initiate\/\d+\/[\w-]+$/);
    const publicId = link.pathname.split('/').pop() ?? '';
    const portal = await t.app.inject({
      method: 'GET',
      url: `/api/public/payment-portal/${publicId}/`,
    });
    expect(portal.statusCode, portal.body).toBe(200);
    const p = portal.json();
    expect(p.amount_pence).toBe(1300);
    const paid = await t.app.inject({
      method: 'POST',
      url: `${p.api_base}/v1/payment_intents/${p.provider_intent_id}/confirm`,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: new URLSearchParams({
        key: p.publishable_key,
        client_secret: p.client_secret ?? '',
        'payment_method_data[card][number]': '4242424242424242',
        return_url: link.pathname,
      }).toString(),
    });
    expect(paid.statusCode, paid.body).toBeLessThan(300);
    await t.settle();
    await t.settle();
    const detail = await call(admin, 'GET', `/api/portal-registrations/${id}/`);
    expect(detail.json().state).toBe('case_created');
    expect(detail.json().events.map((e: { state: string }) => e.state)).toContain('paid');

    // another person abandons the payment: 48 hours on, expired and the intent cancelled
    const left = (await call(anon, 'POST', url, person('abandon@example.test'))).json();
    const leftToken = await tokenFor('abandon@example.test');
    const waiting = await call(anon, 'POST', `${url}confirm/`, {
      token: leftToken,
      password: STRONG,
    });
    expect(waiting.json().state).toBe('awaiting_payment');
    const later = new Date(t.clock.now().getTime() + (REGISTRATION_EXPIRY_HOURS + 1) * HOUR);
    expect(await runRegistrationExpiry(t.app.deps, later)).toBeGreaterThanOrEqual(1);
    const [reg] = await t.owner((tx) =>
      tx.select().from(portalRegistrations).where(eq(portalRegistrations.id, left.registration_id)),
    );
    expect(reg?.state).toBe('expired');
    const [intent] = await t.owner((tx) =>
      tx
        .select()
        .from(paymentIntents)
        .where(eq(paymentIntents.id, reg?.paymentIntentId ?? 0)),
    );
    expect(intent).toMatchObject({ status: 'canceled', outcome: 'declined' });
  });
});

describe('a signed-in subject (/api/s/)', () => {
  it('registers with their account’s details and gets the case on their account', async () => {
    await makePortal({ path: 'signed-in' });
    await t.owner((tx) =>
      createSubjectUser(tx, {
        customerId: acme,
        email: 'grace@example.test',
        firstName: 'Grace',
        lastName: 'Hopper',
      }),
    );
    const grace = await login(t.app, 'grace@example.test');
    const url = `/api/s/self-initiate/${segment}/signed-in/`;
    expect((await call(grace, 'GET', url)).statusCode).toBe(200);
    const res = await call(grace, 'POST', url);
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json()).toMatchObject({ state: 'case_created', existing: false });
    const again = await call(grace, 'POST', url);
    expect(again.json()).toMatchObject({ existing: true, next_url: res.json().next_url });
    const anon = await anonymous(t.app);
    expect((await call(anon, 'POST', url)).statusCode).toBe(401);
  });
});

describe('the 48-hour expiry', () => {
  it('expires what did not come to a case, once, with an event; the clock moved', async () => {
    await makePortal({ path: 'expiring' });
    const anon = await anonymous(t.app);
    const url = `/api/public/self-initiate/${segment}/expiring/`;
    const res = await call(anon, 'POST', url, person('late@example.test'));
    const id = res.json().registration_id;
    const token = await tokenFor('late@example.test');
    const start = t.clock.now();
    expect(await runRegistrationExpiry(t.app.deps, new Date(start.getTime() + 47 * HOUR))).toBe(0);
    const at = new Date(start.getTime() + REGISTRATION_EXPIRY_HOURS * HOUR + 1000);
    const n = await runRegistrationExpiry(t.app.deps, at);
    expect(n).toBeGreaterThanOrEqual(1);
    expect(await runRegistrationExpiry(t.app.deps, at)).toBe(0);
    const [row] = await t.owner((tx) =>
      tx.select().from(portalRegistrations).where(eq(portalRegistrations.id, id)),
    );
    expect(row?.state).toBe('expired');
    const events = await t.owner((tx) =>
      tx
        .select()
        .from(portalRegistrationEvents)
        .where(eq(portalRegistrationEvents.registrationId, id)),
    );
    expect(events.filter((e) => e.state === 'expired')).toHaveLength(1);
    // its link no longer works; registering again starts a new one
    const confirm = await call(anon, 'POST', `${url}confirm/`, { token, password: STRONG });
    expect(confirm.statusCode).toBe(400);
    const fresh = await call(anon, 'POST', url, person('late@example.test'));
    expect(fresh.statusCode).toBe(201);
    expect(fresh.json().registration_id).not.toBe(id);
  });
});

describe('portal registrations (staff)', () => {
  it('lists with filters and state, keeps to the tenant, needs the entitlement', async () => {
    const all = await call(viewer, 'GET', '/api/portal-registrations/');
    expect(all.statusCode).toBe(200);
    expect(all.json().count).toBeGreaterThan(0);
    const started = await call(admin, 'GET', '/api/portal-registrations/?state=started');
    for (const r of started.json().results) expect(r.state).toBe('started');
    const q = await call(admin, 'GET', '/api/portal-registrations/?q=payer@');
    expect(q.json().results.map((r: { email: string }) => r.email)).toEqual(['payer@example.test']);
    const bad = await call(admin, 'GET', '/api/portal-registrations/?state=nope&started_from=x');
    expect(bad.statusCode).toBe(400);
    const paged = await call(admin, 'GET', '/api/portal-registrations/?page_size=1');
    expect(paged.json().results).toHaveLength(1);
    expect((await call(theirs, 'GET', '/api/portal-registrations/')).json().count).toBe(0);
    const id = all.json().results[0].id;
    expect((await call(theirs, 'GET', `/api/portal-registrations/${id}/`)).statusCode).toBe(404);
    expect((await call(plain, 'GET', '/api/portal-registrations/')).statusCode).toBe(403);
  });

  it('filters by subject (?subject=): that subject’s only, in the tenant and segment', async () => {
    const done = await call(admin, 'GET', '/api/portal-registrations/?state=case_created');
    const subjectId: number = done.json().results[0].subject_id;
    expect(subjectId).toBeGreaterThan(0);
    const mine = await call(admin, 'GET', `/api/portal-registrations/?subject=${subjectId}`);
    expect(mine.statusCode, mine.body).toBe(200);
    expect(mine.json().count).toBeGreaterThan(0);
    for (const r of mine.json().results) expect(r.subject_id).toBe(subjectId);
    const total = (await call(admin, 'GET', '/api/portal-registrations/')).json().count;
    expect(mine.json().count).toBeLessThan(total);
    // a subject with no registration, and one of another customer: none
    const [nobody, theirSubject] = await t.owner(async (tx) => [
      (await createSubjectUser(tx, { customerId: acme, email: 'no.one@example.test' })).id,
      (await createSubjectUser(tx, { customerId: other, email: 'th.eirs@example.test' })).id,
    ]);
    const none = await call(admin, 'GET', `/api/portal-registrations/?subject=${nobody}`);
    expect(none.json().count).toBe(0);
    const foreign = await call(theirs, 'GET', `/api/portal-registrations/?subject=${subjectId}`);
    expect(foreign.json().count).toBe(0);
    const cross = await call(admin, 'GET', `/api/portal-registrations/?subject=${theirSubject}`);
    expect(cross.json().count).toBe(0);
    const bad = await call(admin, 'GET', '/api/portal-registrations/?subject=abc');
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toHaveProperty('subject');
    // a user limited to another segment sees none of this subject's registrations
    await t.owner(async (tx) => {
      const [south] = await tx
        .insert(segments)
        .values({ customerId: acme, name: 'South' })
        .returning();
      const u = await createProductUser(tx, {
        customerId: acme,
        username: 'south@acme.test',
        roles: ['viewer'],
      });
      await tx
        .insert(segmentUsers)
        .values({ customerId: acme, segmentId: south?.id ?? 0, userId: u.id });
    });
    const south = await login(t.app, 'south@acme.test');
    const limited = await call(south, 'GET', `/api/portal-registrations/?subject=${subjectId}`);
    expect(limited.statusCode).toBe(200);
    expect(limited.json().count).toBe(0);
    // while the administrator (no segment limit) sees it
    expect(mine.json().results[0].subject_id).toBe(subjectId);
  });

  it('resends the confirmation only while started (audited)', async () => {
    const list = await call(admin, 'GET', '/api/portal-registrations/?state=started');
    const started = list.json().results[0];
    await t.settle();
    const before = mailer.sent.length;
    const res = await call(
      admin,
      'POST',
      `/api/portal-registrations/${started.id}/resend-confirmation/`,
    );
    expect(res.statusCode, res.body).toBe(200);
    await t.settle();
    expect(mailer.sent.length).toBe(before + 1);
    const done = await call(admin, 'GET', '/api/portal-registrations/?state=case_created');
    const refused = await call(
      admin,
      'POST',
      `/api/portal-registrations/${done.json().results[0].id}/resend-confirmation/`,
    );
    expect(refused.statusCode).toBe(400);
    expect(
      (await call(theirs, 'POST', `/api/portal-registrations/${started.id}/resend-confirmation/`))
        .statusCode,
    ).toBe(404);
  });
});

describe('rate limits (config.rateLimits)', () => {
  const post = async (path: string, ip: string, email: string) =>
    t.app.inject({
      method: 'POST',
      headers: (await anonymous(t.app)).headers,
      url: `/api/public/self-initiate/${segment}/${path}/`,
      remoteAddress: ip,
      payload: person(email),
    });

  it('answers 429 beyond the registrations per address, every portal together', async () => {
    const max = t.app.deps.config.rateLimits.registrationsPerAddress ?? 0;
    expect(max).toBe(REGISTRATION_RATE_LIMITS.registrationsPerAddress);
    await makePortal({ path: 'flood-a' });
    await makePortal({ path: 'flood-b' });
    const codes: number[] = [];
    for (let i = 0; i <= max; i++) {
      const res = await post(
        i % 2 ? 'flood-a' : 'flood-b',
        '203.0.113.9',
        `flood${i}@example.test`,
      );
      codes.push(res.statusCode);
    }
    expect(codes.slice(0, max)).toEqual(Array(max).fill(201));
    expect(codes[max]).toBe(429);
  });

  it('answers 429 beyond the registrations per portal, every address together', async () => {
    const max = t.app.deps.config.rateLimits.registrationsPerPortal ?? 0;
    expect(max).toBe(PER_PORTAL);
    await makePortal({ path: 'crowd' });
    const codes: number[] = [];
    for (let i = 0; i <= max; i++) {
      const res = await post('crowd', `198.51.100.${i + 1}`, `crowd${i}@example.test`);
      codes.push(res.statusCode);
    }
    expect(codes.slice(0, max)).toEqual(Array(max).fill(201));
    expect(codes[max]).toBe(429);
    // another portal is not limited by this one's crowd
    await makePortal({ path: 'quiet' });
    expect((await post('quiet', '198.51.100.200', 'quiet@example.test')).statusCode).toBe(201);
  });
});

describe('the demo seed', () => {
  it('gives a customer-pays and a subject-pays portal and registrations in every state', async () => {
    const out = await t.owner(async (tx) => {
      await createProcess(tx, { customerId: other, name: 'Care worker onboarding' });
      await seedRegportalsDemo({
        tx,
        clock: t.clock,
        customers: { acme: other, northgate: acme },
        users: {},
        subjects: {},
        storage: t.app.deps.storage,
      });
      return tx
        .select({ state: portalRegistrations.state })
        .from(portalRegistrations)
        .where(eq(portalRegistrations.customerId, other));
    });
    expect(new Set(out.map((r) => r.state))).toEqual(
      new Set(['started', 'email_confirmed', 'awaiting_payment', 'paid', 'expired']),
    );
    const portals = await call(theirs, 'GET', '/api/portal-registrations/');
    expect(portals.json().count).toBe(out.length);
    // the one awaiting payment has its intent, as a real one: purpose registration, awaiting
    const [awaiting] = await t.owner((tx) =>
      tx
        .select()
        .from(portalRegistrations)
        .where(
          and(
            eq(portalRegistrations.customerId, other),
            eq(portalRegistrations.state, 'awaiting_payment'),
          ),
        ),
    );
    expect(awaiting?.paymentIntentId).not.toBeNull();
    const [intent] = await t.owner((tx) =>
      tx
        .select()
        .from(paymentIntents)
        .where(eq(paymentIntents.id, awaiting?.paymentIntentId ?? 0)),
    );
    expect(intent).toMatchObject({
      customerId: other,
      purpose: 'registration',
      purposeId: awaiting?.id,
      outcome: 'awaiting',
    });
    expect(intent?.amountPence).toBeGreaterThan(0);
    // its payment portal opens (the page asks the job for the provider's intent)
    const portal = await t.app.inject({
      method: 'GET',
      url: `/api/public/payment-portal/${intent?.publicId}/`,
    });
    expect(portal.statusCode).toBe(200);
    expect(portal.json().description).toContain('Self-funded applicants');
    const detail = await call(theirs, 'GET', `/api/portal-registrations/${awaiting?.id}/`);
    expect(detail.json().events.map((e: { note: string }) => e.note)).toContain(
      `Payment ${intent?.publicId}`,
    );
  });
});

void TEST_PASSWORD;

describe('every endpoint: the entitlement, the permission and the tenant', () => {
  let none: Client;
  let portalId = 0;
  let registrationId = 0;

  beforeAll(async () => {
    // a user of Acme with none of the processes' or subjects' permissions
    await t.owner(async (tx) => {
      const role = await createRole(tx, { customerId: acme, permissions: ['cases.view_case'] });
      await createProductUser(tx, {
        customerId: acme,
        username: 'no-perms@acme.test',
        roles: [role.id],
      });
    });
    none = await login(t.app, 'no-perms@acme.test');
    admin = await login(t.app, 'admin@acme.test');
    viewer = await login(t.app, 'viewer@acme.test');
    plain = await login(t.app, 'admin@plain.test');
    theirs = await login(t.app, 'admin@other.test');
    portalId = (await makePortal({ path: 'matrix' })).id;
    const res = await t.app.inject({
      method: 'POST',
      headers: (await anonymous(t.app)).headers,
      url: `/api/public/self-initiate/${segment}/matrix/`,
      remoteAddress: '192.0.2.77',
      payload: person('matrix@example.test'),
    });
    expect(res.statusCode, res.body).toBe(201);
    registrationId = res.json().registration_id;
  });

  /** `viewer`: what the viewer role (view processes and subjects) gets. */
  type Endpoint = { method: string; url: () => string; body?: () => unknown; viewer: 200 | 403 };
  const portals = () => portalsUrl(care);
  const endpoints: Endpoint[] = [
    { method: 'GET', url: portals, viewer: 200 },
    {
      method: 'POST',
      url: portals,
      body: () => ({ segment_id: segment, path: 'refused', title: 'Refused' }),
      viewer: 403,
    },
    { method: 'GET', url: () => `${portals()}${portalId}/`, viewer: 200 },
    {
      method: 'PATCH',
      url: () => `${portals()}${portalId}/`,
      body: () => ({ title: 'Refused' }),
      viewer: 403,
    },
    { method: 'DELETE', url: () => `${portals()}${portalId}/`, viewer: 403 },
    { method: 'GET', url: () => '/api/portal-registrations/', viewer: 200 },
    { method: 'GET', url: () => `/api/portal-registrations/${registrationId}/`, viewer: 200 },
  ];
  const name = (e: Endpoint) => `${e.method} ${e.url()}`;

  it('403 without the regportals entitlement or the permission; the viewer reads only', async () => {
    const plainUrls = [
      ['GET', portalsUrl(plainProcess)],
      ['POST', portalsUrl(plainProcess)],
      ['GET', `${portalsUrl(plainProcess)}${portalId}/`],
      ['PATCH', `${portalsUrl(plainProcess)}${portalId}/`],
      ['DELETE', `${portalsUrl(plainProcess)}${portalId}/`],
      ['GET', '/api/portal-registrations/'],
      ['GET', `/api/portal-registrations/${registrationId}/`],
      ['POST', `/api/portal-registrations/${registrationId}/resend-confirmation/`],
    ] as const;
    for (const [method, url] of plainUrls) {
      const res = await call(plain, method, url, method === 'GET' ? undefined : {});
      expect(res.statusCode, `${method} ${url}`).toBe(403);
    }
    for (const e of endpoints) {
      expect((await call(none, e.method, e.url(), e.body?.())).statusCode, name(e)).toBe(403);
      expect((await call(viewer, e.method, e.url(), e.body?.())).statusCode, name(e)).toBe(
        e.viewer,
      );
    }
    const resend = `/api/portal-registrations/${registrationId}/resend-confirmation/`;
    expect((await call(none, 'POST', resend)).statusCode).toBe(403);
    const still = await call(admin, 'GET', `${portals()}${portalId}/`);
    expect(still.json()).toMatchObject({ title: 'Volunteers' });
  });

  it('resending the confirmation needs subjects.add_subject: 403 for a reader, staff of another customer without it, a subject', async () => {
    const resend = `/api/portal-registrations/${registrationId}/resend-confirmation/`;
    await t.owner(async (tx) => {
      const readers = await createRole(tx, {
        customerId: acme,
        permissions: ['subjects.view_subject', 'processes.view_process'],
      });
      await createProductUser(tx, {
        customerId: acme,
        username: 'reg-reader@acme.test',
        roles: [readers.id],
      });
      const adders = await createRole(tx, {
        customerId: acme,
        permissions: ['subjects.view_subject', 'subjects.add_subject'],
      });
      await createProductUser(tx, {
        customerId: acme,
        username: 'reg-adder@acme.test',
        roles: [adders.id],
      });
      const theirReaders = await createRole(tx, {
        customerId: other,
        permissions: ['subjects.view_subject'],
      });
      await createProductUser(tx, {
        customerId: other,
        username: 'reg-reader@other.test',
        roles: [theirReaders.id],
      });
      await createSubjectUser(tx, { customerId: acme, email: 'reg-subject@example.test' });
    });
    const reader = await login(t.app, 'reg-reader@acme.test');
    const adder = await login(t.app, 'reg-adder@acme.test');
    const theirReader = await login(t.app, 'reg-reader@other.test');
    const subject = await login(t.app, 'reg-subject@example.test');
    await t.settle();
    const before = mailer.sent.length;
    for (const c of [viewer, reader, none, theirReader, subject]) {
      expect((await call(c, 'POST', resend)).statusCode).toBe(403);
    }
    // nothing was sent, and the reader still reads the registration
    await t.settle();
    expect(mailer.sent.length).toBe(before);
    expect(
      (await call(reader, 'GET', `/api/portal-registrations/${registrationId}/`)).statusCode,
    ).toBe(200);
    // the permission alone (no admin role) sends it
    const sent = await call(adder, 'POST', resend);
    expect(sent.statusCode, sent.body).toBe(200);
    await t.settle();
    expect(mailer.sent.length).toBe(before + 1);
    // another customer's staff holding it: not found (tenancy), nothing sent
    expect((await call(theirs, 'POST', resend)).statusCode).toBe(404);
    await t.settle();
    expect(mailer.sent.length).toBe(before + 1);
  });

  it("another customer's administrator: 404 for every id of ours, our rows absent from lists", async () => {
    for (const e of endpoints) {
      const res = await call(theirs, e.method, e.url(), e.body?.());
      if (e.url() === '/api/portal-registrations/') {
        expect(res.statusCode).toBe(200);
        const ids = (res.json() as { results: { id: number }[] }).results.map((r) => r.id);
        expect(ids).not.toContain(registrationId);
      } else {
        expect(res.statusCode, name(e)).toBe(404);
      }
    }
    // our portal under their own process is not found either
    const mine = `${portalsUrl(theirProcess)}${portalId}/`;
    expect((await call(theirs, 'GET', mine)).statusCode).toBe(404);
    const resend = `/api/portal-registrations/${registrationId}/resend-confirmation/`;
    expect((await call(theirs, 'POST', resend)).statusCode).toBe(404);
    expect((await call(admin, 'GET', `${portals()}${portalId}/`)).statusCode).toBe(200);
  });

  it('the public registration is validated by field (400), nothing registered', async () => {
    const res = await t.app.inject({
      method: 'POST',
      headers: (await anonymous(t.app)).headers,
      url: `/api/public/self-initiate/${segment}/matrix/`,
      remoteAddress: '192.0.2.79',
      payload: {
        first_name: '',
        last_name: ' ',
        email: 'not-an-email',
        dob: '1990-13-45',
        phone: 'call me',
      },
    });
    expect(res.statusCode).toBe(400);
    expect(Object.keys(res.json()).sort()).toEqual([
      'dob',
      'email',
      'first_name',
      'last_name',
      'phone',
    ]);
    const made = await t.owner((tx) =>
      tx.select().from(portalRegistrations).where(eq(portalRegistrations.email, 'not-an-email')),
    );
    expect(made).toHaveLength(0);
  });

  it('a public link of a customer whose regportals entitlement was taken away is not found', async () => {
    const anon = await anonymous(t.app);
    const link = `/api/public/self-initiate/${segment}/matrix/`;
    const signedLink = `/api/s/self-initiate/${segment}/matrix/`;
    await t.owner((tx) =>
      createSubjectUser(tx, { customerId: acme, email: 'signed.matrix@example.test' }),
    );
    const subject = await login(t.app, 'signed.matrix@example.test');
    expect((await call(anon, 'GET', link)).statusCode).toBe(200);
    expect((await call(subject, 'GET', signedLink)).statusCode).toBe(200);
    const entitlement = and(
      eq(customerEntitlements.customerId, acme),
      eq(customerEntitlements.entitlement, 'regportals'),
    );
    await t.owner((tx) => tx.delete(customerEntitlements).where(entitlement));
    try {
      expect((await call(anon, 'GET', link)).statusCode).toBe(404);
      const post = await t.app.inject({
        method: 'POST',
        headers: anon.headers,
        url: link,
        remoteAddress: '192.0.2.78',
        payload: person('after@example.test'),
      });
      expect(post.statusCode).toBe(404);
      const confirm = await call(anon, 'POST', `${link}confirm/`, {
        token: 'x'.repeat(40),
        password: STRONG,
      });
      expect(confirm.statusCode).toBe(404);
      expect((await call(subject, 'GET', signedLink)).statusCode).toBe(404);
      expect((await call(subject, 'POST', signedLink)).statusCode).toBe(404);
      const made = await t.owner((tx) =>
        tx
          .select()
          .from(portalRegistrations)
          .where(eq(portalRegistrations.email, 'after@example.test')),
      );
      expect(made).toHaveLength(0);
    } finally {
      await t.owner((tx) =>
        tx.insert(customerEntitlements).values({ customerId: acme, entitlement: 'regportals' }),
      );
    }
    expect((await call(anon, 'GET', link)).statusCode).toBe(200);
  });
});
