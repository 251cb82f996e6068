import { createHmac, timingSafeEqual } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { brandDetails, EXPIRED_PAYLOAD, WEBHOOK_PAYLOAD_EXPIRED } from '@kestrel/domain';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  buildTestApp,
  type Client,
  createCase,
  createCustomer,
  createProcess,
  createProductUser,
  createSubjectUser,
  login,
  MemoryMailer,
  type TestApp,
} from '../../../test/helpers.js';
import { auditActions } from '../../platform/tables/audit.table.js';
import { caseActivities } from '../activities/activities.table.js';
import { customers } from '../customers/customers.table.js';
import { subjectConsents } from '../portal/consents.table.js';
import { attemptDelivery, ENDPOINT_DISABLED_REASON } from './webhook-jobs.js';
import { PRIVATE_ADDRESS } from './webhook-send.js';
import { WEBHOOK_ENDPOINT_CT } from './webhooks.service.js';
import { webhookDeliveries, webhookEndpoints } from './webhooks.table.js';

/**
 * The receiver's own check of a delivery, written from the documented scheme
 * (docs/api-contract.md, "Webhooks"), not from the product's code: `Kestrel-Signature:
 * t=<unix>,v1=<hex HMAC-SHA256 of "<t>.<raw body>" under the endpoint's secret>`.
 */
function verifySignature(secret: string, header: string | undefined, rawBody: string): boolean {
  if (!header) return false;
  const parts = new Map<string, string>();
  for (const item of header.split(',')) {
    const [k, v] = item.split('=');
    if (k && v) parts.set(k.trim(), v.trim());
  }
  const t = parts.get('t');
  const v1 = parts.get('v1');
  if (!t || !v1) return false;
  const expected = createHmac('sha256', secret).update(`${t}.${rawBody}`).digest();
  const sent = Buffer.from(v1, 'hex');
  return sent.length === expected.length && timingSafeEqual(sent, expected);
}

interface Received {
  url: string;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

let t: TestApp;
const mailer = new MemoryMailer();
let admin: Client;
let viewer: Client;
let otherAdmin: Client;
let acme: number;
let acmeCase: number;
let server: Server;
let receiverUrl: string;
let received: Received[] = [];
let answer = 200;

const call = (client: Client, method: string, url: string, payload?: unknown) =>
  t.app.inject({
    method: method as 'GET',
    url,
    headers: client.headers,
    ...(payload === undefined ? {} : { payload: payload as Record<string, unknown> }),
  });

async function addEndpoint(events: string[], url = receiverUrl, by: Client = admin) {
  const res = await call(by, 'POST', '/api/webhook-endpoints/', { url, events });
  expect(res.statusCode, res.body).toBe(201);
  return res.json() as { id: number; secret: string; url: string };
}

async function raiseFlag(message = 'Check the address') {
  const res = await call(admin, 'POST', '/api/flags/', { case: acmeCase, message });
  expect(res.statusCode, res.body).toBe(201);
  return res.json() as { id: number };
}

beforeAll(async () => {
  server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      received.push({
        url: req.url ?? '',
        headers: req.headers,
        body: Buffer.concat(chunks).toString('utf8'),
      });
      res.writeHead(answer, { 'content-type': 'application/json' });
      res.end(answer === 200 ? '{"received":true}' : '{"error":"down for maintenance"}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  receiverUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`;
  t = await buildTestApp({ mailer, config: { jobWorkers: false, webhooksAllowPrivate: true } });
  await t.owner(async (tx) => {
    acme = (await createCustomer(tx, { name: 'Acme' })).id;
    const other = (await createCustomer(tx, { name: 'Other' })).id;
    await createProductUser(tx, {
      customerId: acme,
      username: 'admin@acme.test',
      firstName: 'Ada',
      lastName: 'Min',
    });
    await createProductUser(tx, {
      customerId: acme,
      username: 'viewer@acme.test',
      roles: ['viewer'],
    });
    await createProductUser(tx, { customerId: other, username: 'admin@other.test' });
    acmeCase = (await createCase(tx, { customerId: acme })).id;
  });
  admin = await login(t.app, 'admin@acme.test');
  viewer = await login(t.app, 'viewer@acme.test');
  otherAdmin = await login(t.app, 'admin@other.test');
});

afterAll(async () => {
  await t.close();
  await new Promise((resolve) => server.close(resolve));
});

beforeEach(() => {
  received = [];
  answer = 200;
});

describe('webhook endpoints', () => {
  it('adds an endpoint with its secret shown once and stored sealed; lists, reads, changes, audited', async () => {
    const e = await addEndpoint(['case.created', 'flag.raised']);
    expect(e.secret).toMatch(/^whsec_/);
    const [stored] = await t.owner((tx) =>
      tx.select().from(webhookEndpoints).where(eq(webhookEndpoints.id, e.id)),
    );
    expect(stored?.secret.startsWith('v1:')).toBe(true);
    expect(stored?.secret).not.toContain(e.secret);
    const list = await call(admin, 'GET', '/api/webhook-endpoints/');
    expect(list.statusCode).toBe(200);
    expect(list.body).not.toContain(e.secret);
    expect(list.json().results.map((x: { id: number }) => x.id)).toContain(e.id);
    const one = await call(admin, 'GET', `/api/webhook-endpoints/${e.id}/`);
    expect(one.json()).toMatchObject({ url: receiverUrl, events: ['case.created', 'flag.raised'] });
    expect(one.json().secret).toBeUndefined();
    const patched = await call(admin, 'PATCH', `/api/webhook-endpoints/${e.id}/`, {
      events: ['case.completed'],
      description: 'HR',
    });
    expect(patched.statusCode).toBe(200);
    expect(patched.json()).toMatchObject({ events: ['case.completed'], description: 'HR' });
    const bad = await call(admin, 'POST', '/api/webhook-endpoints/', {
      url: 'not a url',
      events: ['nope'],
    });
    expect(bad.statusCode).toBe(400);
    expect(Object.keys(bad.json()).sort()).toEqual(['events.0', 'url']);
    expect((await call(admin, 'DELETE', `/api/webhook-endpoints/${e.id}/`)).statusCode).toBe(204);
    expect((await call(admin, 'GET', `/api/webhook-endpoints/${e.id}/`)).statusCode).toBe(404);
    const audit = await t.owner((tx) =>
      tx
        .select()
        .from(auditActions)
        .where(
          and(
            eq(auditActions.contentType, WEBHOOK_ENDPOINT_CT),
            eq(auditActions.objectId, String(e.id)),
          ),
        ),
    );
    expect(audit.map((a) => a.verb).sort()).toEqual(['created', 'deleted', 'updated']);
  });

  it('is for administrators only (403) and of their customer only (404)', async () => {
    const e = await addEndpoint(['flag.raised']);
    expect((await call(viewer, 'GET', '/api/webhook-endpoints/')).statusCode).toBe(403);
    expect(
      (
        await call(viewer, 'POST', '/api/webhook-endpoints/', {
          url: receiverUrl,
          events: ['flag.raised'],
        })
      ).statusCode,
    ).toBe(403);
    for (const [method, url] of [
      ['GET', `/api/webhook-endpoints/${e.id}/`],
      ['PATCH', `/api/webhook-endpoints/${e.id}/`],
      ['DELETE', `/api/webhook-endpoints/${e.id}/`],
      ['GET', `/api/webhook-endpoints/${e.id}/deliveries/`],
      ['POST', `/api/webhook-endpoints/${e.id}/test/`],
    ] as const) {
      const res = await call(
        otherAdmin,
        method,
        url,
        method === 'PATCH' ? { description: 'x' } : undefined,
      );
      expect(res.statusCode, `${method} ${url}`).toBe(404);
    }
    const test = await call(admin, 'POST', `/api/webhook-endpoints/${e.id}/test/`);
    expect(test.statusCode).toBe(200);
    expect(
      (await call(otherAdmin, 'POST', `/api/webhook-deliveries/${test.json().id}/resend/`))
        .statusCode,
    ).toBe(404);
    // another customer's event reaches none of this customer's endpoints
    expect(received).toHaveLength(1);
    await call(admin, 'DELETE', `/api/webhook-endpoints/${e.id}/`);
  });

  it('delivers a subscribed event signed, logged with status, latency and excerpt', async () => {
    const e = await addEndpoint(['flag.raised']);
    const other = await addEndpoint(['case.completed']);
    const flag = await raiseFlag();
    await t.settle();
    expect(received).toHaveLength(1);
    const got = received[0];
    if (!got) throw new Error('nothing received');
    expect(verifySignature(e.secret, String(got.headers['kestrel-signature']), got.body)).toBe(
      true,
    );
    expect(verifySignature(other.secret, String(got.headers['kestrel-signature']), got.body)).toBe(
      false,
    );
    expect(
      verifySignature(e.secret, String(got.headers['kestrel-signature']), `${got.body} `),
    ).toBe(false);
    const body = JSON.parse(got.body);
    expect(body).toMatchObject({
      type: 'flag.raised',
      data: { flag: { id: flag.id, case: acmeCase, kind: 'manual' } },
    });
    expect(body.id).toMatch(/^evt_/);
    expect(got.headers['kestrel-event-id']).toBe(body.id);
    const ts = Number(/t=(\d+)/.exec(String(got.headers['kestrel-signature']))?.[1]);
    expect(Math.abs(ts - t.clock.now().getTime() / 1000)).toBeLessThan(5);
    const log = await call(admin, 'GET', `/api/webhook-endpoints/${e.id}/deliveries/`);
    expect(log.json().results[0]).toMatchObject({
      event: 'flag.raised',
      event_id: body.id,
      status: 'delivered',
      attempts: 1,
      response_status: 200,
      response_excerpt: '{"received":true}',
    });
    expect(log.json().results[0].latency_ms).toBeGreaterThanOrEqual(0);
    expect(
      (await call(admin, 'GET', `/api/webhook-endpoints/${other.id}/deliveries/`)).json().count,
    ).toBe(0);
    // resend: a new delivery of the same event
    const again = await call(
      admin,
      'POST',
      `/api/webhook-deliveries/${log.json().results[0].id}/resend/`,
    );
    expect(again.statusCode).toBe(201);
    expect(again.json()).toMatchObject({ status: 'pending', event_id: body.id });
    await t.settle();
    expect(received).toHaveLength(2);
    expect(JSON.parse(received[1]?.body ?? '{}').id).toBe(body.id);
    // a delivery whose payload the retention run blanked has nothing to resend
    await t.owner((tx) =>
      tx
        .update(webhookDeliveries)
        .set({ payload: EXPIRED_PAYLOAD })
        .where(eq(webhookDeliveries.id, log.json().results[0].id)),
    );
    const expired = await call(
      admin,
      'POST',
      `/api/webhook-deliveries/${log.json().results[0].id}/resend/`,
    );
    expect(expired.statusCode).toBe(400);
    expect(expired.json()).toEqual({ non_field_errors: [WEBHOOK_PAYLOAD_EXPIRED] });
    await t.settle();
    expect(received).toHaveLength(2);
    await call(admin, 'DELETE', `/api/webhook-endpoints/${e.id}/`);
    await call(admin, 'DELETE', `/api/webhook-endpoints/${other.id}/`);
  });

  it('sends a test event now and answers its outcome', async () => {
    const e = await addEndpoint(['case.created']);
    const res = await call(admin, 'POST', `/api/webhook-endpoints/${e.id}/test/`);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      event: 'endpoint.test',
      status: 'delivered',
      response_status: 200,
    });
    expect(received).toHaveLength(1);
    expect(
      verifySignature(
        e.secret,
        String(received[0]?.headers['kestrel-signature']),
        received[0]?.body ?? '',
      ),
    ).toBe(true);
    answer = 503;
    const failed = await call(admin, 'POST', `/api/webhook-endpoints/${e.id}/test/`);
    expect(failed.json()).toMatchObject({
      status: 'failed',
      response_status: 503,
      response_excerpt: '{"error":"down for maintenance"}',
      next_attempt_at: null,
    });
    await call(admin, 'DELETE', `/api/webhook-endpoints/${e.id}/`);
  });

  it('retries with back-off for 24 hours, then disables the endpoint and emails the administrators', async () => {
    answer = 500;
    const e = await addEndpoint(['flag.raised']);
    await raiseFlag('Retry me');
    await t.settle();
    const [first] = await t.owner((tx) =>
      tx.select().from(webhookDeliveries).where(eq(webhookDeliveries.endpointId, e.id)),
    );
    if (!first) throw new Error('no delivery');
    expect(first).toMatchObject({ status: 'pending', attempts: 1, responseStatus: 500 });
    const gaps: number[] = [];
    let d = first;
    while (d.status === 'pending' && d.nextAttemptAt) {
      gaps.push((d.nextAttemptAt.getTime() - (d.lastAttemptAt?.getTime() ?? 0)) / 60_000);
      t.clock.set(d.nextAttemptAt);
      const next = await attemptDelivery(t.app.deps, {
        customerId: acme,
        deliveryId: d.id,
        manual: false,
      });
      if (!next) throw new Error('no attempt');
      d = next;
    }
    expect(gaps.slice(0, 6)).toEqual([1, 4, 16, 64, 256, 1024]);
    expect(d.status).toBe('failed');
    expect(d.attempts).toBe(8);
    expect(d.lastAttemptAt?.getTime()).toBe(first.createdAt.getTime() + 24 * 3_600_000);
    expect(received).toHaveLength(8);
    for (const r of received) {
      expect(verifySignature(e.secret, String(r.headers['kestrel-signature']), r.body)).toBe(true);
    }
    // a day later: the sessions have gone idle
    admin = await login(t.app, 'admin@acme.test');
    otherAdmin = await login(t.app, 'admin@other.test');
    const one = await call(admin, 'GET', `/api/webhook-endpoints/${e.id}/`);
    expect(one.json()).toMatchObject({
      is_enabled: false,
      disabled_reason: ENDPOINT_DISABLED_REASON,
    });
    await t.settle();
    const mail = mailer.sent.find((m) => m.subject === 'A webhook endpoint has been disabled');
    expect(mail?.to).toBe('admin@acme.test');
    expect(mail?.text).toContain(receiverUrl);
    // a disabled endpoint hears no more events
    received = [];
    await raiseFlag('After disabling');
    await t.settle();
    expect(received).toHaveLength(0);
    // enabled again, the reason goes
    const on = await call(admin, 'PATCH', `/api/webhook-endpoints/${e.id}/`, { is_enabled: true });
    expect(on.json()).toMatchObject({ is_enabled: true, disabled_reason: '' });
    await call(admin, 'DELETE', `/api/webhook-endpoints/${e.id}/`);
  });

  it("emails the disabling only to administrators whose profile's notifications are on", async () => {
    await t.owner((tx) =>
      createProductUser(tx, { customerId: acme, username: 'quiet@acme.test', firstName: 'Q' }),
    );
    let quiet = await login(t.app, 'quiet@acme.test');
    const setNotifications = async (on: boolean) => {
      const res = await call(quiet, 'PUT', '/api/user/', { notifications: on });
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json()).toMatchObject({ notifications: on });
    };
    /** An endpoint whose deliveries fail for 24 hours: disabled; the emails it sent. */
    const disableOne = async () => {
      answer = 500;
      const e = await addEndpoint(['flag.raised']);
      await raiseFlag('Nobody answers');
      await t.settle();
      let [d] = await t.owner((tx) =>
        tx.select().from(webhookDeliveries).where(eq(webhookDeliveries.endpointId, e.id)),
      );
      while (d?.status === 'pending' && d.nextAttemptAt) {
        t.clock.set(d.nextAttemptAt);
        d =
          (await attemptDelivery(t.app.deps, {
            customerId: acme,
            deliveryId: d.id,
            manual: false,
          })) ?? undefined;
      }
      expect(d?.status).toBe('failed');
      const before = mailer.sent.length;
      await t.settle();
      // a day later: the sessions have gone idle
      admin = await login(t.app, 'admin@acme.test');
      otherAdmin = await login(t.app, 'admin@other.test');
      quiet = await login(t.app, 'quiet@acme.test');
      const one = await call(admin, 'GET', `/api/webhook-endpoints/${e.id}/`);
      expect(one.json()).toMatchObject({ is_enabled: false });
      await call(admin, 'DELETE', `/api/webhook-endpoints/${e.id}/`);
      const sent = mailer.sent
        .slice(before)
        .filter((m) => m.subject === 'A webhook endpoint has been disabled');
      // in the customer's brand, naming the address and where to enable it again
      for (const m of sent) {
        expect(m.fromName).toBe(brand.name);
        expect(m.text).toContain(receiverUrl);
        expect(m.html).toContain(brand.colour);
      }
      return sent.map((m) => m.to).sort();
    };
    let brand = brandDetails('kestrel');
    // off: not told (the others with notifications on are)
    await setNotifications(false);
    expect(await disableOne()).toEqual(['admin@acme.test']);
    // on again: told (a customer of the second brand: in that brand)
    await setNotifications(true);
    await t.owner((tx) =>
      tx.update(customers).set({ brand: 'harrier' }).where(eq(customers.id, acme)),
    );
    brand = brandDetails('harrier');
    expect(await disableOne()).toEqual(['admin@acme.test', 'quiet@acme.test']);
    await t.owner((tx) =>
      tx.update(customers).set({ brand: 'kestrel' }).where(eq(customers.id, acme)),
    );
  });

  it("an API key reaches its own customer's endpoints and deliveries only", async () => {
    admin = await login(t.app, 'admin@acme.test');
    otherAdmin = await login(t.app, 'admin@other.test');
    const bearer = (key: string, method: string, url: string, payload?: unknown) =>
      t.app.inject({
        method: method as 'GET',
        url,
        headers: { authorization: `Bearer ${key}` },
        ...(payload === undefined ? {} : { payload: payload as Record<string, unknown> }),
      });
    const keyOf = async (by: Client, scopes: string[]) => {
      const res = await call(by, 'POST', '/api/api-keys/', { name: 'Their HR system', scopes });
      expect(res.statusCode, res.body).toBe(201);
      return (res.json() as { secret: string }).secret;
    };
    const ours = await addEndpoint(['flag.raised']);
    const test = await call(admin, 'POST', `/api/webhook-endpoints/${ours.id}/test/`);
    expect(test.statusCode, test.body).toBe(200);
    expect(test.json().id).toEqual(expect.any(Number));
    const theirKey = await keyOf(otherAdmin, ['customers.change_customer']);
    // their own endpoints: listed and made with the key
    const made = await bearer(theirKey, 'POST', '/api/webhook-endpoints/', {
      url: receiverUrl,
      events: ['case.created'],
    });
    expect(made.statusCode, made.body).toBe(201);
    const list = await bearer(theirKey, 'GET', '/api/webhook-endpoints/');
    expect(list.statusCode).toBe(200);
    const ids = (list.json() as { results: { id: number }[] }).results.map((e) => e.id);
    expect(ids).toContain(made.json().id);
    expect(ids).not.toContain(ours.id);
    // ours: not found, whatever the method
    for (const [method, url, body] of [
      ['GET', `/api/webhook-endpoints/${ours.id}/`, undefined],
      ['PATCH', `/api/webhook-endpoints/${ours.id}/`, { is_enabled: false }],
      ['DELETE', `/api/webhook-endpoints/${ours.id}/`, undefined],
      ['GET', `/api/webhook-endpoints/${ours.id}/deliveries/`, undefined],
      ['POST', `/api/webhook-endpoints/${ours.id}/test/`, undefined],
      ['POST', `/api/webhook-deliveries/${test.json().id}/resend/`, undefined],
    ] as const) {
      expect((await bearer(theirKey, method, url, body)).statusCode, `${method} ${url}`).toBe(404);
    }
    // a key of ours without the administrators' permission: 403
    const narrow = await keyOf(admin, ['cases.view_case']);
    expect((await bearer(narrow, 'GET', '/api/webhook-endpoints/')).statusCode).toBe(403);
    // ours is as it was: enabled, one delivery (the test)
    const still = await call(admin, 'GET', `/api/webhook-endpoints/${ours.id}/`);
    expect(still.json()).toMatchObject({ is_enabled: true, url: receiverUrl });
    const log = await call(admin, 'GET', `/api/webhook-endpoints/${ours.id}/deliveries/`);
    expect(log.json().count).toBe(1);
    await call(admin, 'DELETE', `/api/webhook-endpoints/${ours.id}/`);
    await bearer(theirKey, 'DELETE', `/api/webhook-endpoints/${made.json().id}/`);
  });

  it('refuses private and loopback addresses unless the installation allows them', async () => {
    const e = await addEndpoint(['flag.raised']);
    const config = t.app.deps.config;
    config.webhooksAllowPrivate = false;
    try {
      for (const url of [
        'http://127.0.0.1:9/x',
        'http://10.1.2.3/x',
        'http://192.168.0.1/x',
        'http://169.254.169.254/latest',
        'http://[::1]/x',
        'http://localhost:8080/x',
        // loopback spelled otherwise: IPv4-mapped and IPv4-compatible IPv6, decimal, short
        'http://[::ffff:127.0.0.1]/x',
        'http://[::127.0.0.1]/x',
        'http://2130706433/x',
        'http://127.1/x',
        'http://[fec0::1]/x',
        'http://localhost./x',
        'http://api.localhost/x',
      ]) {
        const res = await call(admin, 'POST', '/api/webhook-endpoints/', {
          url,
          events: ['flag.raised'],
        });
        expect(res.statusCode, url).toBe(400);
        expect(res.json()).toEqual({ url: [PRIVATE_ADDRESS] });
      }
      // nor changed to one
      const moved = await call(admin, 'PATCH', `/api/webhook-endpoints/${e.id}/`, {
        url: 'http://10.0.0.1/x',
      });
      expect([moved.statusCode, moved.json()]).toEqual([400, { url: [PRIVATE_ADDRESS] }]);
      // an endpoint made while allowed is not sent to once refused
      const test = await call(admin, 'POST', `/api/webhook-endpoints/${e.id}/test/`);
      expect(test.json()).toMatchObject({ status: 'failed', error: PRIVATE_ADDRESS });
      expect(received).toHaveLength(0);
    } finally {
      config.webhooksAllowPrivate = true;
    }
    await call(admin, 'DELETE', `/api/webhook-endpoints/${e.id}/`);
  });

  it('emits case.created, activity.state_changed and case.completed from where they happen', async () => {
    const e = await addEndpoint(['case.created', 'activity.state_changed', 'case.completed']);
    const [process, inProgress] = await t.owner(async (tx) => {
      const p = await createProcess(tx, {
        customerId: acme,
        name: 'Care',
        requirements: ['basic-details'],
      });
      const c = await createCase(tx, {
        customerId: acme,
        processId: p.id,
        activityStates: ['ca-in-progress'],
      });
      return [p.id, c.id];
    });
    const opened = await call(admin, 'POST', '/api/cases/', {
      process,
      new_subject: { first_name: 'Wendy', last_name: 'Hook', email: 'wendy@example.test' },
    });
    expect(opened.statusCode, opened.body).toBe(201);
    const detail = await call(admin, 'GET', `/api/cases/${inProgress}/`);
    const activity = detail.json().case_activities[0].id;
    const moved = await call(admin, 'PATCH', `/api/case-activities/${activity}/`, {
      state: 'ca-complete',
    });
    expect(moved.statusCode, moved.body).toBe(200);
    const decided = await call(admin, 'POST', `/api/cases/${inProgress}/record_decision/`, {
      decision: 'satisfactory',
    });
    expect(decided.statusCode, decided.body).toBe(200);
    await t.settle();
    const events = received.map((r) => JSON.parse(r.body));
    for (const r of received) {
      expect(verifySignature(e.secret, String(r.headers['kestrel-signature']), r.body)).toBe(true);
    }
    expect(events.find((x) => x.type === 'case.created')?.data.case).toMatchObject({
      id: opened.json().id,
      process,
    });
    expect(events.find((x) => x.type === 'activity.state_changed')?.data.activity).toEqual({
      id: activity,
      case: inProgress,
      from: 'ca-in-progress',
      to: 'ca-complete',
    });
    expect(events.find((x) => x.type === 'case.completed')?.data.case).toMatchObject({
      id: inProgress,
      state: 'complete',
      decision: 'satisfactory',
    });
    await call(admin, 'DELETE', `/api/webhook-endpoints/${e.id}/`);
  });

  it('emits consent.withdrawn when a subject withdraws a consent', async () => {
    const e = await addEndpoint(['consent.withdrawn']);
    const consentId = await t.owner(async (tx) => {
      const person = await createSubjectUser(tx, { customerId: acme, email: 'cara@example.test' });
      const p = await createProcess(tx, { customerId: acme, requirements: ['dbs-update'] });
      const c = await createCase(tx, { customerId: acme, processId: p.id, subjectId: person.id });
      const [a] = await tx.select().from(caseActivities).where(eq(caseActivities.caseId, c.id));
      const [row] = await tx
        .insert(subjectConsents)
        .values({
          customerId: acme,
          caseId: c.id,
          caseActivityId: a?.id ?? 0,
          kind: 'dbs-update',
          givenAt: t.clock.now(),
        })
        .returning();
      return row?.id ?? 0;
    });
    const cara = await login(t.app, 'cara@example.test');
    const res = await call(cara, 'POST', `/api/s/consents/${consentId}/withdraw/`);
    expect(res.statusCode, res.body).toBe(200);
    await t.settle();
    const events = received.map((r) => JSON.parse(r.body));
    expect(events.map((x) => x.type)).toEqual(['consent.withdrawn']);
    expect(events[0]?.data.consent).toMatchObject({ id: consentId, kind: 'dbs-update' });
    expect(
      verifySignature(
        e.secret,
        String(received[0]?.headers['kestrel-signature']),
        received[0]?.body ?? '',
      ),
    ).toBe(true);
    await call(admin, 'DELETE', `/api/webhook-endpoints/${e.id}/`);
  });

  it("emits consent.renewed when a subject renews a DVLA mandate: to the customer's subscribed endpoints only", async () => {
    const renewedHook = await addEndpoint(['consent.renewed'], `${receiverUrl}/renewed`);
    const withdrawnHook = await addEndpoint(
      ['consent.withdrawn', 'case.created'],
      `${receiverUrl}/withdrawn`,
    );
    const otherHook = await addEndpoint(['consent.renewed'], `${receiverUrl}/other`, otherAdmin);
    const day = 86_400_000;
    const expiresAt = new Date(t.clock.now().getTime() + 20 * day);
    const [consentId, caseId, activityId] = await t.owner(async (tx) => {
      const person = await createSubjectUser(tx, { customerId: acme, email: 'dora@example.test' });
      const p = await createProcess(tx, { customerId: acme, requirements: ['driver-data'] });
      const c = await createCase(tx, {
        customerId: acme,
        processId: p.id,
        subjectId: person.id,
        activityStates: ['ca-complete'],
      });
      const [a] = await tx.select().from(caseActivities).where(eq(caseActivities.caseId, c.id));
      const [row] = await tx
        .insert(subjectConsents)
        .values({
          customerId: acme,
          caseId: c.id,
          caseActivityId: a?.id ?? 0,
          kind: 'driver-data',
          givenAt: new Date(expiresAt.getTime() - 3 * 365 * day),
          expiresAt,
        })
        .returning();
      return [row?.id ?? 0, c.id, a?.id ?? 0];
    });
    const dora = await login(t.app, 'dora@example.test');
    const res = await call(dora, 'POST', '/api/s/dvla-reconsent/', { consent: consentId });
    expect(res.statusCode, res.body).toBe(201);
    const renewed = res.json() as { id: number; expires_at: string };
    await t.settle();
    // one delivery, to Acme's endpoint subscribed to the event; none to the other two
    expect(received.map((r) => r.url)).toEqual(['/hooks/renewed']);
    const [got] = received;
    expect(
      verifySignature(
        renewedHook.secret,
        String(got?.headers['kestrel-signature']),
        got?.body ?? '',
      ),
    ).toBe(true);
    expect(
      verifySignature(otherHook.secret, String(got?.headers['kestrel-signature']), got?.body ?? ''),
    ).toBe(false);
    const body = JSON.parse(got?.body ?? '{}');
    expect(body).toMatchObject({ type: 'consent.renewed', id: got?.headers['kestrel-event-id'] });
    expect(body.data).toEqual({
      consent: {
        id: renewed.id,
        replaces: consentId,
        kind: 'driver-data',
        case: caseId,
        case_activity: activityId,
        renewed_at: t.clock.now().toISOString(),
        expires_at: renewed.expires_at,
        replaced_expires_at: expiresAt.toISOString(),
      },
    });
    const logged = await t.owner((tx) =>
      tx.select().from(webhookDeliveries).where(eq(webhookDeliveries.event, 'consent.renewed')),
    );
    expect(logged.map((d) => [d.endpointId, d.status])).toEqual([[renewedHook.id, 'delivered']]);
    for (const [by, e] of [
      [admin, renewedHook],
      [admin, withdrawnHook],
      [otherAdmin, otherHook],
    ] as const) {
      await call(by, 'DELETE', `/api/webhook-endpoints/${e.id}/`);
    }
  });

  it("offers consent.renewed in the OpenAPI document's endpoint events", async () => {
    const doc = (await t.app.inject({ method: 'GET', url: '/api/docs/openapi.json' })).json();
    const body = JSON.stringify(doc.paths['/api/webhook-endpoints/'].post.requestBody);
    expect(body).toContain('"consent.renewed"');
    expect(body).toContain('"consent.withdrawn"');
  });
});
