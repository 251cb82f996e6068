import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  buildTestApp,
  type Client,
  createAdminAndViewer,
  createCase,
  createCustomer,
  createProcess,
  createProductUser,
  createSubjectUser,
  login,
  type TestApp,
} from '../../../test/helpers.js';
import { auditActions } from '../../platform/tables/audit.table.js';
import { activityTypes } from '../bootstrap/bootstrap.table.js';
import { caseActivities } from './activities.table.js';

let t: TestApp;
let acme: number;
let other: number;
let admin: Client;
let subject: Client;
let olive: Client;
let oscar: Client;
let oliveId: number;
/** Ops-outstanding dbs-enhanced activities: Acme's (fresh, old) and Other's (old). */
let fresh: number;
let old: number;
let otherOld: number;
const DAY = 86_400_000;

const enhancedOf = async (caseId: number) => {
  const rows = await t.owner((tx) =>
    tx
      .select({ id: caseActivities.id })
      .from(caseActivities)
      .innerJoin(activityTypes, eq(activityTypes.id, caseActivities.activityTypeId))
      .where(and(eq(caseActivities.caseId, caseId), eq(activityTypes.code, 'dbs-enhanced'))),
  );
  return rows[0]?.id ?? 0;
};

beforeAll(async () => {
  t = await buildTestApp();
  const now = t.clock.now();
  await t.owner(async (tx) => {
    acme = (await createCustomer(tx, { name: 'Acme' })).id;
    other = (await createCustomer(tx, { name: 'Other' })).id;
    await createAdminAndViewer(tx, acme);
    oliveId = (
      await createProductUser(tx, {
        customerId: null,
        username: 'olive@k.test',
        roles: ['ops'],
        firstName: 'Olive',
        lastName: 'Ops',
      })
    ).id;
    await createProductUser(tx, {
      customerId: null,
      username: 'oscar@k.test',
      roles: ['ops'],
      firstName: 'Oscar',
      lastName: 'Ops',
    });
    await createSubjectUser(tx, { customerId: acme, email: 'sam@example.test' });
  });
  const make = async (customerId: number, daysAgo: number) => {
    const c = await t.owner(async (tx) => {
      const p = await createProcess(tx, { customerId, requirements: ['dbs-enhanced'] });
      return createCase(tx, {
        customerId,
        processId: p.id,
        activityStates: ['ca-awaiting-ops'],
        createdAt: new Date(now.getTime() - daysAgo * DAY),
      });
    });
    return enhancedOf(c.id);
  };
  fresh = await make(acme, 0);
  old = await make(acme, 5);
  otherOld = await make(other, 10);
  admin = await login(t.app, 'admin@acme.test');
  subject = await login(t.app, 'sam@example.test');
  olive = await login(t.app, 'olive@k.test');
  oscar = await login(t.app, 'oscar@k.test');
});
afterAll(() => t.close());

const post = (c: Client, id: number, action: 'claim' | 'release') =>
  t.app.inject({
    method: 'POST',
    url: `/api/ops/outstanding-activities/${id}/${action}/`,
    headers: c.headers,
  });
const list = async (c: Client, query: string) => {
  const res = await t.app.inject({
    method: 'GET',
    url: `/api/ops/outstanding-activities/?${query}`,
    headers: c.headers,
  });
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as { count: number; results: { id: number; claim: unknown }[] };
};
const ids = async (c: Client, query: string) => (await list(c, query)).results.map((a) => a.id);

describe('claims', () => {
  it('two ops users claiming at once: one 200, one 409 naming the holder', async () => {
    const [a, b] = await Promise.all([post(olive, old, 'claim'), post(oscar, old, 'claim')]);
    const codes = [a.statusCode, b.statusCode].sort();
    expect(codes).toEqual([200, 409]);
    const won = a.statusCode === 200 ? a : b;
    const lost = a.statusCode === 200 ? b : a;
    const holder = won === a ? 'Olive Ops' : 'Oscar Ops';
    expect(lost.json()).toEqual({ detail: `Already claimed by ${holder}.` });
    expect(won.json()).toMatchObject({ id: old, claim: { name: holder } });
    // the holder is shown on the list and the detail, for the team
    const item = (await list(olive, `customer=${acme}`)).results.find((x) => x.id === old);
    expect(item?.claim).toMatchObject({ name: holder });
    const detail = await t.app.inject({
      method: 'GET',
      url: `/api/ops/outstanding-activities/${old}/`,
      headers: oscar.headers,
    });
    expect(detail.json().claim).toMatchObject({ name: holder });
    // released by anyone in operations, then free for the other
    const rel = await post(won === a ? oscar : olive, old, 'release');
    expect([rel.statusCode, rel.json()]).toEqual([200, { id: old, claim: null }]);
    const again = await post(won === a ? oscar : olive, old, 'claim');
    expect(again.statusCode).toBe(200);
    await post(olive, old, 'release');
  });

  it('keeps the waiting time, audits claim and release in the customer', async () => {
    const [before] = await t.owner((tx) =>
      tx.select().from(caseActivities).where(eq(caseActivities.id, fresh)),
    );
    const res = await post(olive, fresh, 'claim');
    expect(res.statusCode).toBe(200);
    expect(res.json().claim).toMatchObject({ user_id: oliveId, name: 'Olive Ops' });
    // claiming one's own again is no change
    const twice = await post(olive, fresh, 'claim');
    expect(twice.json()).toEqual(res.json());
    const [after] = await t.owner((tx) =>
      tx.select().from(caseActivities).where(eq(caseActivities.id, fresh)),
    );
    expect(after?.updatedAt.toISOString()).toBe(before?.updatedAt.toISOString());
    expect(after?.claimedById).toBe(oliveId);
    const released = await t.app.inject({
      method: 'POST',
      url: `/api/ops/outstanding-activities/${fresh}/release/`,
      headers: olive.headers,
      payload: { reason: 'Handed to the DBS team' },
    });
    expect(released.statusCode).toBe(200);
    // a body with anything else: 400
    const bad = await t.app.inject({
      method: 'POST',
      url: `/api/ops/outstanding-activities/${fresh}/claim/`,
      headers: olive.headers,
      payload: { user: 1 },
    });
    expect(bad.statusCode).toBe(400);
    // a release of nothing claimed: 200, nothing audited
    expect((await post(olive, fresh, 'release')).json()).toEqual({ id: fresh, claim: null });
    const audit = await t.owner((tx) =>
      tx
        .select()
        .from(auditActions)
        .where(
          and(
            eq(auditActions.objectId, String(fresh)),
            eq(auditActions.contentType, 'cases.caseactivity'),
          ),
        ),
    );
    expect(audit.map((x) => [x.customerId, x.actorName, x.changes])).toEqual([
      [acme, 'Olive Ops', { claimed_by: [null, 'Olive Ops'] }],
      [acme, 'Olive Ops', { claimed_by: [null, 'Olive Ops'] }],
      [acme, 'Olive Ops', { claimed_by: ['Olive Ops', null], reason: 'Handed to the DBS team' }],
    ]);
  });

  it('is for operations only: customer staff and subjects 403', async () => {
    for (const c of [admin, subject]) {
      for (const action of ['claim', 'release'] as const) {
        expect((await post(c, fresh, action)).statusCode).toBe(403);
      }
    }
    // the customer's own list never shows operations' claims
    const own = await t.app.inject({
      method: 'GET',
      url: '/api/case-activities/',
      headers: admin.headers,
    });
    expect(own.statusCode).toBe(200);
    expect(own.json().results.every((a: object) => !('claim' in a))).toBe(true);
  });

  it('404 for an activity that does not exist; 404 for a bad id', async () => {
    expect((await post(olive, 999_999, 'claim')).statusCode).toBe(404);
    expect((await post(olive, 999_999, 'release')).statusCode).toBe(404);
    expect((await post(olive, 0, 'claim')).statusCode).toBe(404);
  });
});

describe('work queue filters', () => {
  it('filters by assignee, age, target, kind and customer, oldest first', async () => {
    await post(oscar, otherOld, 'claim');
    expect(await ids(olive, '')).toEqual([otherOld, old, fresh]);
    expect(await ids(oscar, 'assignee=me')).toEqual([otherOld]);
    expect(await ids(olive, 'assignee=me')).toEqual([]);
    expect(await ids(olive, 'assignee=unassigned')).toEqual([old, fresh]);
    expect(await ids(olive, 'assignee=anyone')).toEqual([otherOld, old, fresh]);
    expect(await ids(olive, 'older_than_days=3')).toEqual([otherOld, old]);
    expect(await ids(olive, 'older_than_days=3&newer_than_days=7')).toEqual([old]);
    expect(await ids(olive, 'past_target=true')).toEqual([otherOld, old]);
    expect(await ids(olive, 'past_target=false')).toEqual([fresh]);
    expect(await ids(olive, `customer=${acme}&assignee=unassigned`)).toEqual([old, fresh]);
    expect(await ids(olive, 'activity_type=dbs-enhanced&state=ca-awaiting-ops')).toHaveLength(3);
    expect(await ids(olive, 'activity_type=dbs-basic')).toEqual([]);
    await post(oscar, otherOld, 'release');
  });

  it('refuses bad filter values with the field named', async () => {
    for (const [query, field] of [
      ['assignee=someone', 'assignee'],
      ['older_than_days=-1', 'older_than_days'],
      ['older_than_days=abc', 'older_than_days'],
      ['newer_than_days=0', 'newer_than_days'],
      ['past_target=maybe', 'past_target'],
    ] as const) {
      const res = await t.app.inject({
        method: 'GET',
        url: `/api/ops/outstanding-activities/?${query}`,
        headers: olive.headers,
      });
      expect(res.statusCode, query).toBe(400);
      expect(Object.keys(res.json()), query).toEqual([field]);
    }
  });
});
