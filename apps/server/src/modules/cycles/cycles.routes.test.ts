// @postgres: the due job run by two app instances at once opens one case per period (row locks, skip locked)
import { CYCLE_IN_USE, SUBSCRIPTION_MESSAGES } from '@kestrel/domain';
import { and, eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  buildTestApp,
  type Client,
  createCustomer,
  createProcess,
  createProductUser,
  createSubjectUser,
  login,
  type TestApp,
} from '../../../test/helpers.js';
import { createRole } from '../../db/factories.js';
import { auditActions } from '../../platform/tables/audit.table.js';
import { outboxEmails } from '../../platform/tables/outbox.table.js';
import { caseActivities } from '../activities/activities.table.js';
import { activityTypes } from '../bootstrap/bootstrap.table.js';
import { cases } from '../cases/cases.table.js';
import { customerEntitlements } from '../customers/customers.table.js';
import { pricebookPrices, pricebooks } from '../pricebooks/pricebooks.table.js';
import { subjects } from '../subjects/subjects.table.js';
import { seedCyclesDemo } from './cycles.seed.js';
import { cycles, subscriptionCharges, subscriptionPeriods, subscriptions } from './cycles.table.js';
import { portalSubscriptions } from './subscriptions.service.js';
import { runSubscriptionsDue } from './subscriptions-due-job.js';

let t: TestApp;
let acme: number;
let other: number;
let admin: Client;
let viewer: Client;
let plain: Client;
let theirs: Client;
let care: number;
let plainProcess: number;
let theirProcess: number;
const people: number[] = [];
let theirSubject: number;

const DAY = 86_400_000;

const call = (client: Client, method: string, url: string, payload?: unknown) =>
  t.app.inject({
    method: method as 'GET',
    url,
    headers: client.headers,
    ...(payload === undefined ? {} : { payload: payload as Record<string, unknown> }),
  });

const cycleBody = {
  name: 'Update service',
  requirements: ['dbs-update'],
  repeat_interval: 6,
  repeat_unit: 'monthly',
  billing_interval: 1,
  billing_triggered: 'yearly',
};

beforeAll(async () => {
  t = await buildTestApp({ config: { jobWorkers: false } });
  await t.owner(async (tx) => {
    acme = (await createCustomer(tx, { name: 'Acme', entitlements: ['cycles'] })).id;
    other = (await createCustomer(tx, { name: 'Other', entitlements: ['cycles'] })).id;
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
      await createProcess(tx, {
        customerId: acme,
        name: 'Care',
        requirements: ['basic-details', 'dbs-enhanced'],
      })
    ).id;
    plainProcess = (await createProcess(tx, { customerId: without })).id;
    theirProcess = (await createProcess(tx, { customerId: other })).id;
    for (let i = 0; i < 14; i += 1) {
      people.push(
        (
          await createSubjectUser(tx, {
            customerId: acme,
            email: `person${i}@acme-people.test`,
            firstName: `P${i}`,
          })
        ).id,
      );
    }
    theirSubject = (await createSubjectUser(tx, { customerId: other })).id;
    // an invoiced pricebook pricing the update service at £13.00
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
afterAll(() => t.close());

describe('/api/processes/{id}/cycles/', () => {
  let id = 0;
  const base = () => `/api/processes/${care}/cycles/`;

  it('needs the cycles entitlement and the permissions (403)', async () => {
    const res = await call(plain, 'GET', `/api/processes/${plainProcess}/cycles/`);
    expect(res.statusCode).toBe(403);
    const post = await call(plain, 'POST', `/api/processes/${plainProcess}/cycles/`, cycleBody);
    expect(post.statusCode).toBe(403);
    expect((await call(viewer, 'GET', base())).statusCode).toBe(403);
    expect((await call(viewer, 'POST', base(), cycleBody)).statusCode).toBe(403);
  });

  it('validates a cycle (400 by field; requirements the customer may order)', async () => {
    const bad = await call(admin, 'POST', base(), {
      ...cycleBody,
      name: ' ',
      repeat_interval: 0,
      billing_triggered: 'daily',
    });
    expect(bad.statusCode).toBe(400);
    expect(Object.keys(bad.json()).sort()).toEqual([
      'billing_triggered',
      'name',
      'repeat_interval',
    ]);
    const unknown = await call(admin, 'POST', base(), {
      ...cycleBody,
      requirements: ['dbs-update', 'no-such-check'],
    });
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json()).toEqual({
      'requirements.1': ["Unknown activity type 'no-such-check'."],
    });
  });

  it('creates, lists, reads and changes a cycle with its texts and price', async () => {
    const res = await call(admin, 'POST', base(), cycleBody);
    expect(res.statusCode).toBe(201);
    const body = res.json();
    id = body.id;
    expect(body).toMatchObject({
      process: care,
      process_name: 'Care',
      requirements: ['dbs-update'],
      repeat_text: 'Every 6 months',
      billing_text: 'Every year',
      price_pence: 1300,
      price_display: '£13.00',
      price_incomplete: false,
      is_active: true,
      subscription_count: 0,
    });
    const list = await call(admin, 'GET', base());
    expect(list.json()).toMatchObject({ count: 1, results: [{ id }] });
    expect((await call(admin, 'GET', `${base()}${id}/`)).json().name).toBe('Update service');
    const patched = await call(admin, 'PATCH', `${base()}${id}/`, {
      billing_interval: 3,
      billing_triggered: 'monthly',
    });
    expect(patched.statusCode).toBe(200);
    expect(patched.json().billing_text).toBe('Every 3 months');
    const badPatch = await call(admin, 'PATCH', `${base()}${id}/`, { requirements: ['x'] });
    expect(badPatch.json()).toEqual({ 'requirements.0': ["Unknown activity type 'x'."] });
  });

  it("lists every process's cycles for the pickers (/api/cycles/), active ones on request", async () => {
    const off = await call(admin, 'POST', base(), {
      ...cycleBody,
      name: 'Retired',
      is_active: false,
    });
    const all = await call(admin, 'GET', '/api/cycles/');
    expect(all.json().results.map((c: { name: string }) => c.name)).toEqual([
      'Retired',
      'Update service',
    ]);
    const active = await call(admin, 'GET', '/api/cycles/?is_active=true');
    expect(active.json().results.map((c: { id: number }) => c.id)).toEqual([id]);
    expect((await call(admin, 'GET', '/api/cycles/?is_active=maybe')).statusCode).toBe(400);
    expect((await call(theirs, 'GET', '/api/cycles/')).json().count).toBe(0);
    expect((await call(plain, 'GET', '/api/cycles/')).statusCode).toBe(403);
    await call(admin, 'DELETE', `${base()}${off.json().id}/`);
  });

  it("keeps customers apart (another's process and cycle are 404)", async () => {
    expect((await call(theirs, 'GET', base())).statusCode).toBe(404);
    expect((await call(theirs, 'GET', `${base()}${id}/`)).statusCode).toBe(404);
    expect((await call(theirs, 'POST', base(), cycleBody)).statusCode).toBe(404);
    expect((await call(theirs, 'DELETE', `${base()}${id}/`)).statusCode).toBe(404);
    const own = await call(theirs, 'GET', `/api/processes/${theirProcess}/cycles/`);
    expect(own.json().count).toBe(0);
  });

  it('deletes a cycle only with no open subscription (400 with the reason)', async () => {
    const made = await call(admin, 'POST', base(), { ...cycleBody, name: 'Short lived' });
    const cid = made.json().id;
    const sub = await call(admin, 'POST', `/api/subjects/${people[13]}/subscriptions/`, {
      cycle: cid,
    });
    expect(sub.statusCode).toBe(201);
    const refused = await call(admin, 'DELETE', `${base()}${cid}/`);
    expect(refused.statusCode).toBe(400);
    expect(refused.json()).toEqual({ non_field_errors: [CYCLE_IN_USE] });
    await call(admin, 'POST', `/api/subscriptions/${sub.json().id}/end/`);
    expect((await call(admin, 'DELETE', `${base()}${cid}/`)).statusCode).toBe(204);
    expect((await call(admin, 'GET', `${base()}${cid}/`)).statusCode).toBe(404);
  });
});

describe('subscriptions', () => {
  let cycle = 0;
  let sub = 0;

  beforeAll(async () => {
    const res = await call(admin, 'POST', `/api/processes/${care}/cycles/`, {
      ...cycleBody,
      name: 'Six-monthly update',
    });
    cycle = res.json().id;
  });

  it('needs the entitlement and permissions', async () => {
    expect((await call(plain, 'GET', '/api/subscriptions/')).statusCode).toBe(403);
    expect((await call(viewer, 'GET', '/api/subscriptions/')).statusCode).toBe(403);
    const p = `/api/subjects/${people[0]}/subscriptions/`;
    expect((await call(viewer, 'POST', p, { cycle })).statusCode).toBe(403);
  });

  it('subscribes a subject once (400 for a second, a bad cycle; 404 for another customer)', async () => {
    const path = `/api/subjects/${people[0]}/subscriptions/`;
    const start = new Date(t.clock.now().getTime() + DAY).toISOString();
    const res = await call(admin, 'POST', path, { cycle, starts_at: start });
    expect(res.statusCode).toBe(201);
    sub = res.json().id;
    expect(res.json()).toMatchObject({
      subject: { id: people[0] },
      cycle: { id: cycle, requirements: ['dbs-update'], repeat_text: 'Every 6 months' },
      process: { id: care, name: 'Care' },
      state: 'active',
      state_display: 'Active',
      next_due_at: start,
      cases_opened: 0,
    });
    const again = await call(admin, 'POST', path, { cycle });
    expect(again.json()).toEqual({ cycle: [SUBSCRIPTION_MESSAGES.alreadySubscribed] });
    expect((await call(admin, 'POST', path, { cycle: 999999 })).statusCode).toBe(400);
    expect((await call(admin, 'POST', path, {})).json()).toHaveProperty('cycle');
    const foreign = `/api/subjects/${theirSubject}/subscriptions/`;
    expect((await call(admin, 'POST', foreign, { cycle })).statusCode).toBe(404);
    expect((await call(admin, 'GET', foreign)).statusCode).toBe(404);
    expect((await call(theirs, 'POST', foreign, { cycle })).statusCode).toBe(400);
    expect((await call(theirs, 'GET', `/api/subscriptions/${sub}/`)).statusCode).toBe(404);
    expect((await call(admin, 'GET', path)).json()).toMatchObject({ count: 1 });
  });

  it('subscribes in bulk, skipping those already subscribed', async () => {
    const res = await call(admin, 'POST', '/api/subscriptions/bulk/', {
      cycle,
      subjects: [people[0], people[1], people[2]],
      starts_at: new Date(t.clock.now().getTime() + 10 * DAY).toISOString(),
    });
    expect(res.statusCode).toBe(201);
    expect(res.json().skipped).toEqual([people[0]]);
    expect(res.json().created.map((s: { subject: { id: number } }) => s.subject.id)).toEqual([
      people[1],
      people[2],
    ]);
    const bad = await call(admin, 'POST', '/api/subscriptions/bulk/', {
      cycle,
      subjects: [people[3], theirSubject],
    });
    expect(bad.statusCode).toBe(400);
    expect(Object.keys(bad.json())).toEqual(['subjects.1']);
  });

  it('lists across subjects by next due date, filtered (400 for a bad filter)', async () => {
    const all = await call(admin, 'GET', '/api/subscriptions/');
    const dues = all.json().results.map((s: { next_due_at: string | null }) => s.next_due_at);
    expect(dues.filter((d: string | null) => d !== null)).toEqual(
      [...dues.filter((d: string | null) => d !== null)].sort(),
    );
    const soon = new Date(t.clock.now().getTime() + 2 * DAY).toISOString().slice(0, 10);
    const before = await call(admin, 'GET', `/api/subscriptions/?due_before=${soon}&state=active`);
    expect(before.json().results.map((s: { id: number }) => s.id)).toEqual([sub]);
    const after = await call(admin, 'GET', `/api/subscriptions/?due_after=${soon}&cycle=${cycle}`);
    expect(after.json().count).toBe(2);
    const byProcess = await call(admin, 'GET', `/api/subscriptions/?process=${theirProcess}`);
    expect(byProcess.json().count).toBe(0);
    expect((await call(admin, 'GET', '/api/subscriptions/?state=asleep')).statusCode).toBe(400);
    expect((await call(admin, 'GET', '/api/subscriptions/?due_after=soon')).statusCode).toBe(400);
    const paged = await call(admin, 'GET', '/api/subscriptions/?page_size=1');
    expect(paged.json().results).toHaveLength(1);
    expect(paged.json().next).toContain('page=2');
    expect((await call(theirs, 'GET', '/api/subscriptions/')).json().count).toBe(0);
  });

  it('pauses, resumes and ends (400 where the state does not allow it)', async () => {
    const p = await call(admin, 'POST', `/api/subscriptions/${sub}/pause/`);
    expect(p.json()).toMatchObject({ state: 'paused', state_display: 'Paused' });
    const again = await call(admin, 'POST', `/api/subscriptions/${sub}/pause/`);
    expect(again.json()).toEqual({
      state: [SUBSCRIPTION_MESSAGES.notAllowed('pause', 'paused')],
    });
    expect((await call(viewer, 'POST', `/api/subscriptions/${sub}/resume/`)).statusCode).toBe(403);
    const r = await call(admin, 'POST', `/api/subscriptions/${sub}/resume/`);
    expect(r.json()).toMatchObject({ state: 'active', paused_at: null });
    expect((await call(theirs, 'POST', `/api/subscriptions/${sub}/end/`)).statusCode).toBe(404);
  });
});

describe('the due job', () => {
  let cycle = 0;
  const casesOf = (subjectId: number) =>
    t.owner((tx) => tx.select().from(cases).where(eq(cases.subjectId, subjectId)));

  beforeAll(async () => {
    const res = await call(admin, 'POST', `/api/processes/${care}/cycles/`, {
      ...cycleBody,
      name: 'Due soon',
    });
    cycle = res.json().id;
  });

  it('opens a case of the cycle once its date comes, invites the subject, moves the date on', async () => {
    const start = new Date(t.clock.now().getTime() + DAY);
    const made = await call(admin, 'POST', `/api/subjects/${people[4]}/subscriptions/`, {
      cycle,
      starts_at: start.toISOString(),
    });
    const id = made.json().id;
    await runSubscriptionsDue(t.app.deps);
    expect(await casesOf(people[4] ?? 0)).toHaveLength(0);

    t.clock.advance(2 * DAY);
    admin = await login(t.app, 'admin@acme.test'); // the session idled out
    await runSubscriptionsDue(t.app.deps);
    const opened = await casesOf(people[4] ?? 0);
    expect(opened).toHaveLength(1);
    const acts = await t.owner((tx) =>
      tx
        .select({ code: activityTypes.code })
        .from(caseActivities)
        .innerJoin(activityTypes, eq(activityTypes.id, caseActivities.activityTypeId))
        .where(eq(caseActivities.caseId, opened[0]?.id ?? 0)),
    );
    expect(acts.map((a) => a.code)).toEqual(['dbs-update']);
    await t.settle();
    const mails = await t.owner((tx) =>
      tx.select().from(outboxEmails).where(eq(outboxEmails.to, 'person4@acme-people.test')),
    );
    expect(mails).toHaveLength(1);
    const after = (await call(admin, 'GET', `/api/subscriptions/${id}/`)).json();
    expect(after.cases_opened).toBe(1);
    expect(after.last_case).toBe(opened[0]?.id);
    const sixMonths = new Date(start);
    sixMonths.setUTCMonth(sixMonths.getUTCMonth() + 6);
    expect(after.next_due_at).toBe(sixMonths.toISOString());

    // invoiced: the billing period is an invoice line at the cycle's price, once
    const charges = await t.owner((tx) =>
      tx.select().from(subscriptionCharges).where(eq(subscriptionCharges.subscriptionId, id)),
    );
    expect(charges.map((c) => [c.kind, c.amountPence])).toEqual([['invoice', 1300]]);

    // a run again (a restart) opens nothing more
    await runSubscriptionsDue(t.app.deps);
    expect(await casesOf(people[4] ?? 0)).toHaveLength(1);
    // even a date put back on a period already opened (a lost update) opens no second case
    await t.owner((tx) =>
      tx.update(subscriptions).set({ nextDueAt: start }).where(eq(subscriptions.id, id)),
    );
    await runSubscriptionsDue(t.app.deps);
    expect(await casesOf(people[4] ?? 0)).toHaveLength(1);
    await expect(
      t.owner((tx) =>
        tx.insert(subscriptionPeriods).values({
          customerId: acme,
          subscriptionId: id,
          period: start,
          caseId: opened[0]?.id ?? 0,
        }),
      ),
    ).rejects.toThrow();

    // the portal's subscriptions: the subject's, with the cycle's requirements
    const portal = await t.owner((tx) => portalSubscriptions(tx, opened[0]?.id ?? 0));
    expect(portal).toEqual([{ id, cycle: { id: cycle, requirements: ['dbs-update'] } }]);
    // the subject's case portal: the update service section counted in its progress (point 4)
    const subject = await login(t.app, 'person4@acme-people.test');
    const own = await call(subject, 'GET', `/api/s/case-portal/${opened[0]?.id}/`);
    expect(own.statusCode, own.body).toBe(200);
    expect(own.json().portal.sections).toEqual(['welcome', 'dbs-update', 'review', 'done']);
    expect(own.json().portal.progress).toMatchObject({ completed: 0, total: 4 });
    expect(own.json().subscriptions).toEqual(portal);
  });

  it('a paused subscription comes due only once resumed, an ended one never', async () => {
    const start = new Date(t.clock.now().getTime() + DAY).toISOString();
    const paused = (
      await call(admin, 'POST', `/api/subjects/${people[5]}/subscriptions/`, {
        cycle,
        starts_at: start,
      })
    ).json().id;
    const ended = (
      await call(admin, 'POST', `/api/subjects/${people[6]}/subscriptions/`, {
        cycle,
        starts_at: start,
      })
    ).json().id;
    await call(admin, 'POST', `/api/subscriptions/${paused}/pause/`);
    await call(admin, 'POST', `/api/subscriptions/${ended}/end/`);
    t.clock.advance(3 * DAY);
    admin = await login(t.app, 'admin@acme.test');
    await runSubscriptionsDue(t.app.deps);
    expect(await casesOf(people[5] ?? 0)).toHaveLength(0);
    expect(await casesOf(people[6] ?? 0)).toHaveLength(0);
    // resumed after its date passed: the pause skipped that period, the next is six months on
    const resumed = (await call(admin, 'POST', `/api/subscriptions/${paused}/resume/`)).json();
    const next = new Date(start);
    next.setUTCMonth(next.getUTCMonth() + 6);
    expect(resumed.next_due_at).toBe(next.toISOString());
    expect((await call(admin, 'GET', `/api/subscriptions/${ended}/`)).json()).toMatchObject({
      state: 'ended',
      next_due_at: null,
    });
  });

  it('a subject archived meanwhile: no case and no bill for the period, the dates move on (audited)', async () => {
    const person = await t.owner(
      async (tx) =>
        (await createSubjectUser(tx, { customerId: acme, email: 'gone@acme-people.test' })).id,
    );
    const start = new Date(t.clock.now().getTime() + DAY);
    const made = await call(admin, 'POST', `/api/subjects/${person}/subscriptions/`, {
      cycle,
      starts_at: start.toISOString(),
    });
    const id = made.json().id;
    await t.owner((tx) =>
      tx.update(subjects).set({ archivedAt: t.clock.now() }).where(eq(subjects.id, person)),
    );
    t.clock.advance(2 * DAY);
    admin = await login(t.app, 'admin@acme.test'); // the session idled out
    await runSubscriptionsDue(t.app.deps);
    expect(await casesOf(person)).toHaveLength(0);
    const charges = await t.owner((tx) =>
      tx.select().from(subscriptionCharges).where(eq(subscriptionCharges.subscriptionId, id)),
    );
    expect(charges).toHaveLength(0);
    const after = (await call(admin, 'GET', `/api/subscriptions/${id}/`)).json();
    const year = new Date(start);
    year.setUTCFullYear(year.getUTCFullYear() + 1);
    expect(after).toMatchObject({ state: 'active', next_billing_at: year.toISOString() });
    const audits = await t.owner((tx) =>
      tx
        .select({ changes: auditActions.changes })
        .from(auditActions)
        .where(
          and(
            eq(auditActions.contentType, 'subscriptions.subscription'),
            eq(auditActions.objectId, String(id)),
          ),
        ),
    );
    expect(audits.map((a) => a.changes)).toContainEqual({
      billing_period: start.toISOString(),
      skipped: SUBSCRIPTION_MESSAGES.archivedSubject,
    });
  });

  it('opens each case exactly once with two server processes running the job at once', async () => {
    const start = new Date(t.clock.now().getTime() + DAY).toISOString();
    const subjectsDue = people.slice(7, 13);
    const bulk = await call(admin, 'POST', '/api/subscriptions/bulk/', {
      cycle,
      subjects: subjectsDue,
      starts_at: start,
    });
    const ids: number[] = bulk.json().created.map((s: { id: number }) => s.id);
    expect(ids).toHaveLength(6);
    t.clock.advance(2 * DAY);
    admin = await login(t.app, 'admin@acme.test'); // the session idled out
    // without the entitlement nothing comes due (the subscriptions wait)
    await t.owner((tx) =>
      tx
        .delete(customerEntitlements)
        .where(
          and(
            eq(customerEntitlements.customerId, acme),
            eq(customerEntitlements.entitlement, 'cycles'),
          ),
        ),
    );
    expect(await runSubscriptionsDue(t.app.deps)).toBe(0);
    await t.owner((tx) =>
      tx.insert(customerEntitlements).values({ customerId: acme, entitlement: 'cycles' }),
    );
    const twin = await t.twin();
    const handled = await Promise.all([
      runSubscriptionsDue(t.app.deps),
      runSubscriptionsDue(twin.deps),
      runSubscriptionsDue(t.app.deps),
    ]);
    expect(handled.reduce((a, b) => a + b, 0)).toBe(6);
    const opened = await t.owner((tx) =>
      tx.select().from(cases).where(inArray(cases.subjectId, subjectsDue)),
    );
    expect(opened).toHaveLength(6);
    const periods = await t.owner((tx) =>
      tx
        .select()
        .from(subscriptionPeriods)
        .where(
          and(
            eq(subscriptionPeriods.customerId, acme),
            inArray(subscriptionPeriods.subscriptionId, ids),
          ),
        ),
    );
    expect(periods).toHaveLength(6);
    const rows = await t.owner((tx) =>
      tx.select().from(subscriptions).where(inArray(subscriptions.id, ids)),
    );
    expect(new Set(rows.map((r) => r.lastCaseId))).toEqual(new Set(opened.map((c) => c.id)));
    expect(other).toBeGreaterThan(0);
  });
});

describe('every endpoint: the entitlement, the permission and the tenant', () => {
  let reader: Client;
  let cycleId = 0;
  let subId = 0;
  let subject = 0;

  beforeAll(async () => {
    // a reader: may view cycles and subscriptions, add or change neither
    subject = await t.owner(async (tx) => {
      const role = await createRole(tx, {
        customerId: acme,
        permissions: ['cycles.view_cycle', 'subscriptions.view_subscription'],
      });
      await createProductUser(tx, {
        customerId: acme,
        username: 'reader@acme.test',
        roles: [role.id],
      });
      return (await createSubjectUser(tx, { customerId: acme, email: 'matrix@acme-people.test' }))
        .id;
    });
    reader = await login(t.app, 'reader@acme.test');
    admin = await login(t.app, 'admin@acme.test');
    viewer = await login(t.app, 'viewer@acme.test');
    plain = await login(t.app, 'admin@plain.test');
    theirs = await login(t.app, 'admin@other.test');
    const made = await call(admin, 'POST', `/api/processes/${care}/cycles/`, {
      ...cycleBody,
      name: 'Matrix',
    });
    cycleId = made.json().id;
    // far ahead: never due in this file
    const far = new Date(t.clock.now().getTime() + 3000 * DAY).toISOString();
    const sub = await call(admin, 'POST', `/api/subjects/${subject}/subscriptions/`, {
      cycle: cycleId,
      starts_at: far,
    });
    subId = sub.json().id;
  });

  /** `theirs`: what another customer's administrator gets (404: our id; list: ours absent). */
  type Endpoint = {
    method: string;
    url: () => string;
    body?: () => unknown;
    write: boolean;
    theirs: 404 | 400 | 'list';
  };
  const endpoints: Endpoint[] = [
    { method: 'GET', url: () => `/api/processes/${care}/cycles/`, write: false, theirs: 404 },
    { method: 'GET', url: () => '/api/cycles/', write: false, theirs: 'list' },
    {
      method: 'POST',
      url: () => `/api/processes/${care}/cycles/`,
      body: () => ({ ...cycleBody, name: 'Refused' }),
      write: true,
      theirs: 404,
    },
    {
      method: 'GET',
      url: () => `/api/processes/${care}/cycles/${cycleId}/`,
      write: false,
      theirs: 404,
    },
    {
      method: 'PATCH',
      url: () => `/api/processes/${care}/cycles/${cycleId}/`,
      body: () => ({ name: 'Refused' }),
      write: true,
      theirs: 404,
    },
    {
      method: 'DELETE',
      url: () => `/api/processes/${care}/cycles/${cycleId}/`,
      write: true,
      theirs: 404,
    },
    {
      method: 'GET',
      url: () => `/api/subjects/${subject}/subscriptions/`,
      write: false,
      theirs: 404,
    },
    {
      method: 'POST',
      url: () => `/api/subjects/${subject}/subscriptions/`,
      body: () => ({ cycle: cycleId }),
      write: true,
      theirs: 404,
    },
    { method: 'GET', url: () => '/api/subscriptions/', write: false, theirs: 'list' },
    {
      method: 'POST',
      url: () => '/api/subscriptions/bulk/',
      body: () => ({ cycle: cycleId, subjects: [subject] }),
      write: true,
      // our cycle does not exist for them
      theirs: 400,
    },
    { method: 'GET', url: () => `/api/subscriptions/${subId}/`, write: false, theirs: 404 },
    { method: 'POST', url: () => `/api/subscriptions/${subId}/pause/`, write: true, theirs: 404 },
    { method: 'POST', url: () => `/api/subscriptions/${subId}/resume/`, write: true, theirs: 404 },
    { method: 'POST', url: () => `/api/subscriptions/${subId}/end/`, write: true, theirs: 404 },
  ];
  const name = (e: Endpoint) => `${e.method} ${e.url()}`;

  it('403 for a customer without the cycles entitlement, on every endpoint', async () => {
    for (const e of endpoints) {
      const res = await call(plain, e.method, e.url(), e.body?.());
      expect(res.statusCode, name(e)).toBe(403);
    }
  });

  it('403 without the permission: the viewer on every endpoint, the reader on every change', async () => {
    for (const e of endpoints) {
      expect((await call(viewer, e.method, e.url(), e.body?.())).statusCode, name(e)).toBe(403);
      const read = await call(reader, e.method, e.url(), e.body?.());
      expect(read.statusCode, name(e)).toBe(e.write ? 403 : 200);
    }
    // nothing changed
    const sub = await call(admin, 'GET', `/api/subscriptions/${subId}/`);
    expect(sub.json()).toMatchObject({ state: 'active', cycle: { name: 'Matrix' } });
  });

  it("another customer's administrator: 404 for every id of ours, our rows absent from lists", async () => {
    for (const e of endpoints) {
      const res = await call(theirs, e.method, e.url(), e.body?.());
      if (e.theirs === 'list') {
        expect(res.statusCode, name(e)).toBe(200);
        const ids = (res.json() as { results: { id: number }[] }).results.map((r) => r.id);
        expect(ids, name(e)).not.toContain(e.url() === '/api/cycles/' ? cycleId : subId);
      } else {
        expect(res.statusCode, name(e)).toBe(e.theirs);
        if (e.theirs === 400) expect(Object.keys(res.json()), name(e)).toEqual(['cycle']);
      }
    }
    const sub = await call(admin, 'GET', `/api/subscriptions/${subId}/`);
    expect(sub.json()).toMatchObject({ state: 'active', cycle: { name: 'Matrix' } });
    expect((await call(admin, 'GET', `/api/processes/${care}/cycles/${cycleId}/`)).statusCode).toBe(
      200,
    );
  });

  it('validates the subscriptions: a bad start, an empty or oversized bulk, an inactive cycle', async () => {
    const path = `/api/subjects/${people[3]}/subscriptions/`;
    const bad = await call(admin, 'POST', path, { cycle: cycleId, starts_at: 'soon' });
    expect([bad.statusCode, Object.keys(bad.json())]).toEqual([400, ['starts_at']]);
    const empty = await call(admin, 'POST', '/api/subscriptions/bulk/', {
      cycle: cycleId,
      subjects: [],
    });
    expect([empty.statusCode, Object.keys(empty.json())]).toEqual([400, ['subjects']]);
    const off = await call(admin, 'POST', `/api/processes/${care}/cycles/`, {
      ...cycleBody,
      name: 'Off',
      is_active: false,
    });
    const inactive = await call(admin, 'POST', path, { cycle: off.json().id });
    expect(inactive.json()).toEqual({ cycle: [SUBSCRIPTION_MESSAGES.inactiveCycle] });
    const noSuch = await call(admin, 'POST', `/api/subscriptions/999999/pause/`);
    expect(noSuch.statusCode).toBe(404);
  });
});

describe('the demo data', () => {
  it('gives the demo customer a six-monthly update-service and a yearly driver-data cycle with subscriptions in each state', async () => {
    const made = await t.owner(async (tx) => {
      await createProcess(tx, { customerId: other, name: 'Care worker onboarding' });
      for (let i = 0; i < 5; i += 1) await createSubjectUser(tx, { customerId: other });
      await seedCyclesDemo({
        tx,
        clock: t.clock,
        customers: { acme: other, northgate: acme },
        users: {},
        subjects: {},
        storage: t.app.deps.storage,
      });
      const cs = await tx
        .select()
        .from(cycles)
        .where(eq(cycles.customerId, other))
        .orderBy(cycles.id);
      const subs = await tx.select().from(subscriptions).where(eq(subscriptions.customerId, other));
      return { cs, subs };
    });
    expect(made.cs.map((c) => [c.name, c.requirements, c.repeatInterval, c.repeatUnit])).toEqual([
      ['Update service check', ['dbs-update'], 6, 'monthly'],
      ['Driver data', ['driver-data'], 1, 'yearly'],
    ]);
    expect(made.subs.map((s) => s.state).sort()).toEqual([
      'active',
      'active',
      'active',
      'ended',
      'paused',
    ]);
    const now = t.clock.now().getTime();
    for (const s of made.subs.filter((x) => x.state !== 'ended')) {
      expect(s.nextDueAt?.getTime() ?? 0).toBeGreaterThan(now);
    }
    theirs = await login(t.app, 'admin@other.test');
    const theirList = await call(theirs, 'GET', '/api/subscriptions/?state=active');
    expect(theirList.json().count).toBe(3);
  });
});
