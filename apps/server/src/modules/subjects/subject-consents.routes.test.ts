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
import { caseActivities } from '../activities/activities.table.js';
import { subjectConsents } from '../portal/consents.table.js';

let t: TestApp;
let acme: number;
let grace: number;
let ada: number;
let foreignSubject: number;
let viewer: Client;
let noView: Client;
let otherViewer: Client;

const DAY = 86_400_000;
const get = (client: Client, url: string) =>
  t.app.inject({ method: 'GET', url, headers: client.headers });

/** A consent on the first check of a new case of `subjectId` taking that kind. */
async function consentFor(
  customerId: number,
  subjectId: number,
  kind: 'dbs-application' | 'driver-data',
  values: { givenAt: Date; expiresAt?: Date | null; withdrawnAt?: Date | null },
) {
  return t.owner(async (tx) => {
    const process = await createProcess(tx, {
      customerId,
      requirements: [kind === 'driver-data' ? 'licence-check' : 'dbs-basic'],
    });
    const c = await createCase(tx, { customerId, processId: process.id, subjectId });
    const [activity] = await tx
      .select()
      .from(caseActivities)
      .where(and(eq(caseActivities.customerId, customerId), eq(caseActivities.caseId, c.id)));
    if (!activity) throw new Error('no activity');
    const [row] = await tx
      .insert(subjectConsents)
      .values({ customerId, caseId: c.id, caseActivityId: activity.id, kind, ...values })
      .returning();
    if (!row) throw new Error('no consent');
    return row.id;
  });
}

let given: number;
let expiring: number;
let withdrawn: number;
let expired: number;

beforeAll(async () => {
  t = await buildTestApp({ config: { jobWorkers: false } });
  let other = 0;
  await t.owner(async (tx) => {
    acme = (await createCustomer(tx, { name: 'Acme' })).id;
    other = (await createCustomer(tx, { name: 'Other' })).id;
    await createProductUser(tx, {
      customerId: acme,
      username: 'viewer@acme.test',
      roles: ['viewer'],
    });
    await createProductUser(tx, { customerId: acme, username: 'none@acme.test', roles: [] });
    await createProductUser(tx, {
      customerId: other,
      username: 'viewer@other.test',
      roles: ['viewer'],
    });
    grace = (
      await createSubjectUser(tx, { customerId: acme, firstName: 'Grace', lastName: 'Hopper' })
    ).id;
    ada = (
      await createSubjectUser(tx, { customerId: acme, firstName: 'Ada', lastName: 'Lovelace' })
    ).id;
    foreignSubject = (await createSubjectUser(tx, { customerId: other, firstName: 'Xena' })).id;
  });
  const now = Date.now();
  given = await consentFor(acme, grace, 'dbs-application', { givenAt: new Date(now - 10 * DAY) });
  expiring = await consentFor(acme, ada, 'driver-data', {
    givenAt: new Date(now - 1000 * DAY),
    expiresAt: new Date(now + 30 * DAY),
  });
  withdrawn = await consentFor(acme, grace, 'dbs-application', {
    givenAt: new Date(now - 20 * DAY),
    withdrawnAt: new Date(now - DAY),
  });
  expired = await consentFor(acme, ada, 'driver-data', {
    givenAt: new Date(now - 1200 * DAY),
    expiresAt: new Date(now - 5 * DAY),
  });
  await consentFor(other, foreignSubject, 'dbs-application', { givenAt: new Date(now - DAY) });
  viewer = await login(t.app, 'viewer@acme.test');
  noView = await login(t.app, 'none@acme.test');
  otherViewer = await login(t.app, 'viewer@other.test');
});

afterAll(() => t.close());

const ids = (res: { json: () => { results: { id: number }[] } }) =>
  res.json().results.map((c) => c.id);

describe('GET /api/consents/', () => {
  it("lists the organisation's consents, expiring soonest first, withdrawn last", async () => {
    const res = await get(viewer, '/api/consents/');
    expect(res.statusCode).toBe(200);
    expect(res.json().count).toBe(4);
    expect(ids(res)).toEqual([expired, expiring, given, withdrawn]);
    expect(res.json().results[1]).toMatchObject({
      subject: { id: ada, name: 'Ada Lovelace' },
      kind: 'driver-data',
      status: 'expiring',
    });
  });

  it('filters by kind and state, and pages', async () => {
    expect(ids(await get(viewer, '/api/consents/?state=given'))).toEqual([expiring, given]);
    expect(ids(await get(viewer, '/api/consents/?state=withdrawn'))).toEqual([withdrawn]);
    expect(ids(await get(viewer, '/api/consents/?state=expired'))).toEqual([expired]);
    expect(ids(await get(viewer, '/api/consents/?kind=driver-data&state=given'))).toEqual([
      expiring,
    ]);
    const page = await get(viewer, '/api/consents/?page_size=2&page=2');
    expect(page.json()).toMatchObject({ count: 4 });
    expect(ids(page)).toEqual([given, withdrawn]);
    expect((await get(viewer, '/api/consents/?state=active')).statusCode).toBe(400);
    expect((await get(viewer, '/api/consents/?kind=nope')).statusCode).toBe(400);
  });

  it('needs subjects.view_subject and keeps to the tenant', async () => {
    expect((await get(noView, '/api/consents/')).statusCode).toBe(403);
    const theirs = await get(otherViewer, '/api/consents/');
    expect(theirs.json().count).toBe(1);
    expect(theirs.json().results[0].subject.id).toBe(foreignSubject);
  });
});

describe('GET /api/subjects/{id}/consents/', () => {
  it("lists one subject's consents", async () => {
    expect(ids(await get(viewer, `/api/subjects/${grace}/consents/`))).toEqual([given, withdrawn]);
    expect(ids(await get(viewer, `/api/subjects/${ada}/consents/?state=expired`))).toEqual([
      expired,
    ]);
  });

  it('404 for another tenant, 403 without the permission', async () => {
    expect((await get(viewer, `/api/subjects/${foreignSubject}/consents/`)).statusCode).toBe(404);
    expect((await get(noView, `/api/subjects/${grace}/consents/`)).statusCode).toBe(403);
  });
});
