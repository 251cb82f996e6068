import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  anonymous,
  buildTestApp,
  type Client,
  createAdminAndViewer,
  createCase,
  createCustomer,
  createFlag,
  createProductUser,
  createSubjectUser,
  login,
  type TestApp,
} from '../../../test/helpers.js';
import { createProcess } from '../../db/factories.js';
import { securityRefusals } from '../../platform/tables/audit.table.js';
import { caseDbsDetails } from '../dbs-details/dbs-details.table.js';
import { cases } from './cases.table.js';

/** The parallel /api/ops/ endpoints of the workspace: cases and flags across customers. */
let t: TestApp;
let acme: number;
let other: number;
let acmeCase: number;
let otherCase: number;
let archivedCase: number;
let acmeFlag: number;
let otherFlag: number;
let opsWork: number;
let ops: Client;
let admin: Client;

beforeAll(async () => {
  t = await buildTestApp();
  await t.owner(async (tx) => {
    acme = (await createCustomer(tx, { name: 'Acme' })).id;
    other = (await createCustomer(tx, { name: 'Other' })).id;
    await createAdminAndViewer(tx, acme);
    await createProductUser(tx, { customerId: null, username: 'ops@k.test', roles: ['ops'] });
    const ada = await createSubjectUser(tx, {
      customerId: acme,
      firstName: 'Ada',
      lastName: 'Byron',
    });
    acmeCase = (await createCase(tx, { customerId: acme, subjectId: ada.id })).id;
    otherCase = (await createCase(tx, { customerId: other })).id;
    archivedCase = (await createCase(tx, { customerId: other, state: 'complete' })).id;
    await tx.update(cases).set({ archivedAt: new Date() }).where(eq(cases.id, archivedCase));
    acmeFlag = (await createFlag(tx, { customerId: acme, caseId: acmeCase, message: 'Gap' })).id;
    otherFlag = (await createFlag(tx, { customerId: other, message: 'Other flag' })).id;
    opsWork = (await createCase(tx, { customerId: other, activityStates: ['ca-awaiting-ops'] })).id;
  });
  ops = await login(t.app, 'ops@k.test');
  admin = await login(t.app, 'admin@acme.test');
});
afterAll(() => t.close());

const get = (c: Client, url: string) => t.app.inject({ method: 'GET', url, headers: c.headers });
type Row = { id: number; customer: number };

describe('/api/ops/cases/', () => {
  it('lists every customer’s unarchived cases, each with its customer, newest first', async () => {
    const res = await get(ops, '/api/ops/cases/');
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.count).toBe(3);
    expect(body.results.map((r: Row) => [r.id, r.customer])).toEqual([
      [opsWork, other],
      [otherCase, other],
      [acmeCase, acme],
    ]);
    expect(body.results[2]).toMatchObject({
      subject: { first_name: 'Ada', last_name: 'Byron' },
      flagged: true,
    });
  });

  it('narrows to one customer, takes the tenant list’s filters, and counts them', async () => {
    const one = (await get(ops, `/api/ops/cases/?customer=${other}`)).json();
    expect(one.results.map((r: Row) => r.id)).toEqual([opsWork, otherCase]);
    expect(one.count).toBe(2);
    const archived = (await get(ops, `/api/ops/cases/?customer=${other}&is_archived=true`)).json();
    expect(archived.results.map((r: Row) => r.id)).toEqual([archivedCase]);
    const all = (await get(ops, '/api/ops/cases/?is_archived=all&ordering=created_at')).json();
    expect(all.count).toBe(4);
    expect(all.results.map((r: Row) => r.id)).toEqual([acmeCase, otherCase, archivedCase, opsWork]);
    const found = (await get(ops, '/api/ops/cases/?search=byron')).json();
    expect(found.results.map((r: Row) => r.id)).toEqual([acmeCase]);
    const flagged = (await get(ops, '/api/ops/cases/?flagged=true')).json();
    expect(flagged.results.map((r: Row) => r.id)).toEqual([acmeCase]);
  });

  it('refuses a malformed customer or state with the field’s error', async () => {
    const bad = await get(ops, '/api/ops/cases/?customer=1,2');
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toEqual({ customer: ['Enter one customer id.'] });
    expect((await get(ops, '/api/ops/cases/?customer=x')).json()).toEqual({
      customer: ['Enter a whole number.'],
    });
    expect((await get(ops, '/api/ops/cases/?state=nope')).statusCode).toBe(400);
  });

  it('shows any customer’s case in full; an unknown id is 404', async () => {
    const res = await get(ops, `/api/ops/cases/${otherCase}/`);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ id: otherCase, customer: other });
    expect(Array.isArray(res.json().case_activities)).toBe(true);
    expect((await get(ops, '/api/ops/cases/999999/')).statusCode).toBe(404);
  });

  it('is for ops staff only: customer staff get 403 (audited), anonymous 401', async () => {
    expect((await get(admin, '/api/ops/cases/')).statusCode).toBe(403);
    expect((await get(admin, `/api/ops/cases/${otherCase}/`)).statusCode).toBe(403);
    // both refusals are recorded, each route counted apart from the activity trail
    const denied = await t.owner((tx) =>
      tx
        .select()
        .from(securityRefusals)
        .where(eq(securityRefusals.customerId, acme))
        .orderBy(securityRefusals.route),
    );
    expect(denied.map((d) => [d.route, d.count])).toEqual([
      ['GET /api/ops/cases/', 1],
      ['GET /api/ops/cases/:id/', 1],
    ]);
    const anon = await anonymous(t.app);
    expect((await get(anon, '/api/ops/cases/')).statusCode).toBe(401);
  });

  it('leaves the tenant list scoped: a customer never sees another’s case or the filter', async () => {
    const res = (await get(admin, `/api/cases/?customer=${other}`)).json();
    expect(res.results.map((r: Row) => r.id)).toEqual([acmeCase]);
    expect(res.results[0].customer).toBe(acme);
    expect((await get(admin, `/api/cases/${otherCase}/`)).statusCode).toBe(404);
  });
});

describe('/api/ops/flags/', () => {
  it('lists every customer’s flags with their customer; ?customer= narrows; retrieve any', async () => {
    const all = (await get(ops, '/api/ops/flags/')).json();
    expect(all.count).toBe(2);
    expect(all.results.map((f: Row) => [f.id, f.customer]).sort()).toEqual(
      [
        [acmeFlag, acme],
        [otherFlag, other],
      ].sort(),
    );
    expect(all.results.find((f: Row) => f.id === acmeFlag)).toMatchObject({
      subject_name: 'Ada Byron',
      message: 'Gap',
    });
    const one = (await get(ops, `/api/ops/flags/?customer=${other}`)).json();
    expect(one.results.map((f: Row) => f.id)).toEqual([otherFlag]);
    const res = await get(ops, `/api/ops/flags/${acmeFlag}/`);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ id: acmeFlag, customer: acme });
  });

  it('is read-only and for ops staff only', async () => {
    expect((await get(admin, '/api/ops/flags/')).statusCode).toBe(403);
    const create = await t.app.inject({
      method: 'POST',
      url: '/api/ops/flags/',
      headers: ops.headers,
      payload: { case: acmeCase, message: 'x' },
    });
    expect([404, 405]).toContain(create.statusCode);
  });
});

describe('/api/ops/outstanding-activities/', () => {
  type Activity = { id: number; state: string; customer: number; case: { id: number } };

  it('lists the activities waiting for operations across customers, oldest first', async () => {
    const res = await get(ops, '/api/ops/outstanding-activities/');
    expect(res.statusCode).toBe(200);
    const rows: Activity[] = res.json().results;
    expect(rows.length).toBeGreaterThan(0);
    expect(new Set(rows.map((a) => a.state))).toEqual(new Set(['ca-awaiting-ops']));
    expect(new Set(rows.map((a) => a.case.id))).toEqual(new Set([opsWork]));
    expect(rows.every((a) => a.customer === other)).toBe(true);
    expect(rows[0]).toMatchObject({ customer_name: 'Other' });
    expect((await get(ops, `/api/ops/outstanding-activities/?customer=${acme}`)).json().count).toBe(
      0,
    );
    const first = rows[0] as Activity;
    const one = await get(ops, `/api/ops/outstanding-activities/${first.id}/`);
    expect(one.json()).toMatchObject({ id: first.id, customer: other });
  });

  it('lists a check waiting for countersigning (its DBS details verified), not one before verification', async () => {
    const [countersign, verify] = await t.owner(async (tx) => {
      const p = await createProcess(tx, { customerId: acme, requirements: ['dbs-enhanced'] });
      const ids: number[] = [];
      for (const state of ['verified', 'pending']) {
        const c = await createCase(tx, {
          customerId: acme,
          processId: p.id,
          activityStates: ['ca-awaiting-agent'],
        });
        await tx.insert(caseDbsDetails).values({
          customerId: acme,
          caseId: c.id,
          idvOption: 'in-person',
          state,
          ...(state === 'verified' ? { verifiedBy: 'Vera', verifiedAt: new Date() } : {}),
        });
        ids.push(c.id);
      }
      return ids;
    });
    const rows: Activity[] = (
      await get(ops, `/api/ops/outstanding-activities/?customer=${acme}`)
    ).json().results;
    expect(rows.map((a) => [a.case.id, a.state])).toEqual([[countersign, 'ca-awaiting-agent']]);
    expect(rows.some((a) => a.case.id === verify)).toBe(false);
  });

  it('is for ops staff only; a customer’s own outstanding list stays scoped', async () => {
    expect((await get(admin, '/api/ops/outstanding-activities/')).statusCode).toBe(403);
    const mine = (await get(admin, '/api/outstanding-activities/')).json();
    expect(mine.results.every((a: Activity) => a.customer === acme)).toBe(true);
  });
});
