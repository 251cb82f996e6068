import { isoDate, PRICEBOOK_OVERLAP } from '@kestrel/domain';
import { addDays } from 'date-fns/addDays';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  buildTestApp,
  type Client,
  createCase,
  createCustomer,
  createProcess,
  createProductUser,
  createSubjectUser,
  login,
  type TestApp,
} from '../../../test/helpers.js';
import { runAsSystem } from '../../platform/service-context.js';
import { auditActions } from '../../platform/tables/audit.table.js';
import { caseActivities } from '../activities/activities.table.js';
import { startActivity } from '../checks/engine.js';
import { PRICEBOOK_CT } from './pricebooks.service.js';
import { pricebooks } from './pricebooks.table.js';

let t: TestApp;
let acme: number;
let other: number;
let processId: number;
let ops: Client;
let admin: Client;
let subject: Client;
let today: string;
const day = (n: number) => isoDate(addDays(new Date(`${today}T12:00:00Z`), n));

beforeAll(async () => {
  t = await buildTestApp({ config: { jobWorkers: false } });
  today = isoDate(t.clock.now());
  await t.owner(async (tx) => {
    acme = (await createCustomer(tx, { name: 'Acme' })).id;
    other = (await createCustomer(tx, { name: 'Other' })).id;
    await createProductUser(tx, {
      customerId: acme,
      username: 'admin@acme.test',
      roles: ['admin'],
    });
    await createProductUser(tx, { customerId: null, username: 'ops@k.test', roles: ['ops'] });
    await createSubjectUser(tx, { customerId: acme, email: 'subject@acme.test' });
    processId = (
      await createProcess(tx, {
        customerId: acme,
        requirements: [
          'basic-details',
          { code: 'dbs-basic', config: { paper_cert: true } },
          'dbs-enhanced',
        ],
      })
    ).id;
  });
  ops = await login(t.app, 'ops@k.test');
  admin = await login(t.app, 'admin@acme.test');
  subject = await login(t.app, 'subject@acme.test');
});
afterAll(() => t.close());

const inject = (c: Client, method: 'GET' | 'POST' | 'PATCH', url: string, payload?: object) =>
  t.app.inject({ method, url, headers: c.headers, ...(payload ? { payload } : {}) });

const url = (customerId: number) => `/api/ops/customers/${customerId}/pricebooks/`;

describe('ops pricebooks', () => {
  it('are for operations only: customer staff and subjects 403', async () => {
    for (const c of [admin, subject]) {
      expect((await inject(c, 'GET', url(acme))).statusCode).toBe(403);
      expect(
        (await inject(c, 'POST', url(acme), { name: 'X', valid_from: today })).statusCode,
      ).toBe(403);
      expect((await inject(c, 'PATCH', `${url(acme)}1/`, { name: 'X' })).statusCode).toBe(403);
    }
  });

  it('creates one with its prices, shown as pounds, active today, audited', async () => {
    const res = await inject(ops, 'POST', url(acme), {
      name: 'Standard',
      valid_from: day(-10),
      prices: [
        { activity_type: 'dbs-basic', level: 'online', amount_pence: 2000 },
        { activity_type: 'dbs-basic', level: 'paper-certificate', amount_pence: 2650 },
        { activity_type: 'basic-details', amount_pence: 0 },
      ],
    });
    expect(res.statusCode).toBe(201);
    const pb = res.json();
    expect(pb).toMatchObject({ customer_id: acme, name: 'Standard', valid_to: null, active: true });
    expect(pb.prices).toContainEqual({
      activity_type: 'dbs-basic',
      level: 'paper-certificate',
      amount_pence: 2650,
      amount_display: '£26.50',
    });
    const audit = await t.owner((tx) =>
      tx.select().from(auditActions).where(eq(auditActions.objectId, pb.id)),
    );
    expect(audit.some((a) => a.verb === 'created')).toBe(true);
    expect(PRICEBOOK_CT).toBe('pricebooks.pricebook');

    const list = await inject(ops, 'GET', url(acme));
    expect(list.json().results.map((p: { id: number }) => p.id)).toEqual([pb.id]);
    expect((await inject(ops, 'GET', url(other))).json().results).toEqual([]);
    expect((await inject(ops, 'GET', `${url(acme)}${pb.id}/`)).json().prices).toHaveLength(3);
    // another customer's path does not reach it
    expect((await inject(ops, 'GET', `${url(other)}${pb.id}/`)).statusCode).toBe(404);
    expect((await inject(ops, 'GET', url(999999))).statusCode).toBe(404);
  });

  it('refuses bad input and a second pricebook valid on the same days', async () => {
    const bad = await inject(ops, 'POST', url(acme), {
      name: '',
      valid_from: 'soon',
      prices: [{ activity_type: 'dbs-basic', level: 'online', amount_pence: -5 }],
    });
    expect(bad.statusCode).toBe(400);
    const overlap = await inject(ops, 'POST', url(acme), { name: 'Next', valid_from: day(5) });
    expect(overlap.statusCode).toBe(400);
    expect(JSON.stringify(overlap.json())).toContain(PRICEBOOK_OVERLAP);
  });

  it('updates dates and prices; end the old one and the next may start', async () => {
    const [pb] = await t.owner((tx) =>
      tx.select().from(pricebooks).where(eq(pricebooks.customerId, acme)),
    );
    if (!pb) throw new Error('no pricebook');
    const ended = await inject(ops, 'PATCH', `${url(acme)}${pb.id}/`, {
      valid_to: day(30),
      prices: [
        { activity_type: 'dbs-basic', level: 'online', amount_pence: 2000 },
        { activity_type: 'dbs-basic', level: 'paper-certificate', amount_pence: 2900 },
      ],
    });
    expect(ended.statusCode).toBe(200);
    expect(ended.json()).toMatchObject({ valid_to: day(30), active: true });
    expect(ended.json().prices).toHaveLength(2);
    const next = await inject(ops, 'POST', url(acme), { name: 'Next', valid_from: day(31) });
    expect(next.statusCode).toBe(201);
    expect(next.json().active).toBe(false);
    // moving the first past the second's start overlaps
    const back = await inject(ops, 'PATCH', `${url(acme)}${pb.id}/`, { valid_to: null });
    expect(back.statusCode).toBe(400);
    const order = await inject(ops, 'PATCH', `${url(acme)}${pb.id}/`, { valid_to: day(-20) });
    expect(order.statusCode).toBe(400);
  });

  it('lets one of two concurrent creations for the same dates through', async () => {
    const body = { name: 'Race', valid_from: day(400), valid_to: day(500) };
    const results = await Promise.all([
      inject(ops, 'POST', url(other), body),
      inject(ops, 'POST', url(other), { ...body, valid_from: day(401) }),
    ]);
    expect(results.map((r) => r.statusCode).sort()).toEqual([201, 400]);
    const rows = await t.owner((tx) =>
      tx
        .select()
        .from(pricebooks)
        .where(and(eq(pricebooks.customerId, other))),
    );
    expect(rows).toHaveLength(1);
  });
});

describe('GET /api/pricebooks/quote/', () => {
  it("quotes a case from the customer's active pricebook, per check", async () => {
    const res = await inject(admin, 'GET', `/api/pricebooks/quote/?process=${processId}`);
    expect(res.statusCode).toBe(200);
    const q = res.json();
    expect(
      q.lines.map((l: { activity_type: string; amount_display: string }) => l.amount_display),
    ).toEqual(['No price set', '£29.00', 'No price set']);
    expect(q).toMatchObject({ total_pence: 2900, total_display: '£29.00', incomplete: true });
  });
  it("is the customer's staff's: another customer's process 404, a subject 403", async () => {
    const otherProcess = await t.owner(
      async (tx) => (await createProcess(tx, { customerId: other })).id,
    );
    expect(
      (await inject(admin, 'GET', `/api/pricebooks/quote/?process=${otherProcess}`)).statusCode,
    ).toBe(404);
    expect(
      (await inject(subject, 'GET', `/api/pricebooks/quote/?process=${processId}`)).statusCode,
    ).toBe(403);
  });
});

describe('the checks read their top-up from the active pricebook', () => {
  /** The top-up a new paper-certificate basic DBS check of `customerId` demands when started. */
  async function topUpOf(customerId: number): Promise<unknown> {
    const activityId = await t.owner(async (tx) => {
      const p = await createProcess(tx, {
        customerId,
        requirements: [{ code: 'dbs-basic', config: { paper_cert: true } }],
      });
      const c = await createCase(tx, { customerId, processId: p.id });
      const [a] = await tx.select().from(caseActivities).where(eq(caseActivities.caseId, c.id));
      if (!a) throw new Error('no activity');
      return a.id;
    });
    await runAsSystem(t.app.deps, (ctx) => startActivity(ctx, activityId));
    const [a] = await t.owner((tx) =>
      tx.select().from(caseActivities).where(eq(caseActivities.id, activityId)),
    );
    const processing = a?.processingData;
    return processing && typeof processing === 'object' && 'top_up' in processing
      ? processing.top_up
      : null;
  }
  it("the paper certificate's price above the online one, else the default price list", async () => {
    // acme's active pricebook: online £20.00, paper £29.00
    expect(await topUpOf(acme)).toMatchObject({ amount_pence: 900, status: 'awaiting' });
    // a customer without an active pricebook: the default £3.50
    const none = await t.owner(async (tx) => (await createCustomer(tx, { name: 'None' })).id);
    expect(await topUpOf(none)).toMatchObject({ amount_pence: 350 });
  });
});
