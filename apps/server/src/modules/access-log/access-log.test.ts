import type { RecordViewOut } from '@kestrel/domain';
import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  type Client,
  createProductUser,
  createRole,
  login,
  type TestApp,
} from '../../../test/helpers.js';
import { kindsWorld } from '../../../test/kinds.js';
import { caseActivities } from '../activities/activities.table.js';
import { activityTypes } from '../bootstrap/bootstrap.table.js';
import { createCaseDocument } from '../case-documents/case-documents.factories.js';
import {
  CRIMINAL_RECORD_CODES,
  csvFirstColumnIds,
  recordResultIds,
  userAgentSummary,
  VIEW_WINDOW_MS,
} from './access-log.service.js';
import { recordViews } from './access-log.table.js';

/*
 * Who saw what (issue 34): every successful view of a criminal-record result, a driving record
 * and a document by anyone is recorded once per viewer, item, manner and window (counted), and
 * shown to the customer's audit viewers (their own customer's only) and to operations.
 */

const world = kindsWorld({ customers: ['Other'], viewer: true });
let t: TestApp;
let admin: Client;
let ops: Client;
let subject: Client;
let otherAdmin: Client;
let noActivities: Client;
let caseId: number;
let otherCaseId: number;
let docId: number;
const ids: Record<string, number> = {};
const CHROME =
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0 Safari/537.36';

beforeAll(async () => {
  ({ t, admin, ops } = world);
  const k = await world.subjectCase({
    requirements: ['dbs-basic', 'driver-data', 'rtw', 'dbs-standard'],
    subject: { email: 'ada.seen@example.test', firstName: 'Ada', lastName: 'Seen' },
    activityStates: ['ca-complete'],
    prepare: async (tx, key) => {
      const rows = await tx
        .select({ id: caseActivities.id, code: activityTypes.code })
        .from(caseActivities)
        .innerJoin(activityTypes, eq(activityTypes.id, caseActivities.activityTypeId))
        .where(eq(caseActivities.caseId, key.caseId));
      for (const r of rows) ids[r.code] = r.id;
      // dbs-standard has no result yet: nothing of it is shown, nothing recorded
      for (const code of ['dbs-basic', 'driver-data', 'rtw']) {
        await tx
          .update(caseActivities)
          .set({ resultData: { outcome: 'clear', certificate_number: '001234567890' } })
          .where(eq(caseActivities.id, ids[code] ?? 0));
      }
    },
  });
  caseId = k.caseId;
  subject = k.subject;
  const other = await world.subjectCase({
    customerId: world.customer('Other'),
    requirements: ['dbs-basic'],
    activityStates: ['ca-complete'],
  });
  otherCaseId = other.caseId;
  await t.owner(async (tx) => {
    docId = (
      await createCaseDocument(tx, t.app.deps.storage, {
        customerId: world.customer('Acme'),
        caseId,
        documentType: 'passport',
      })
    ).id;
    await createProductUser(tx, {
      customerId: world.customer('Other'),
      username: 'admin@other.test',
      roles: ['admin'],
    });
    const role = await createRole(tx, {
      customerId: world.customer('Acme'),
      permissions: ['cases.view_case'],
    });
    await createProductUser(tx, {
      customerId: world.customer('Acme'),
      username: 'cases-only@acme.test',
      roles: [role.id],
    });
  });
  otherAdmin = await login(t.app, 'admin@other.test');
  noActivities = await login(t.app, 'cases-only@acme.test');
});

const get = (client: Client, url: string, headers: Record<string, string> = {}) =>
  t.app.inject({ method: 'GET', url, headers: { ...client.headers, ...headers } });

const views = async (client: Client = admin, qs = '', prefix = '/api') => {
  const res = await get(client, `${prefix}/record-views/?page_size=100${qs}`);
  expect(res.statusCode, res.body).toBe(200);
  return res.json().results as RecordViewOut[];
};

const rowsOf = (itemId: number) =>
  t.owner((tx) => tx.select().from(recordViews).where(eq(recordViews.itemId, itemId)));

const clear = () => t.owner((tx) => tx.delete(recordViews));

describe('views are recorded', () => {
  it('the case page: each criminal-record and driving result on it, by whom, from where', async () => {
    await clear();
    const res = await get(admin, `/api/cases/${caseId}/`, { 'user-agent': CHROME });
    expect(res.statusCode).toBe(200);
    const rows = await views(admin, `&case=${caseId}`);
    const byItem = (a: { item_id: number }, b: { item_id: number }) => a.item_id - b.item_id;
    expect(
      rows
        .map(({ item_kind, item_id, how, count }) => ({ item_kind, item_id, how, count }))
        .sort(byItem),
    ).toEqual(
      [
        { item_kind: 'criminal_record', item_id: ids['dbs-basic'] ?? 0, how: 'page', count: 1 },
        { item_kind: 'driving_record', item_id: ids['driver-data'] ?? 0, how: 'page', count: 1 },
      ].sort(byItem),
    );
    const one = rows[0];
    expect(one?.actor_type).toBe('ProductUser');
    expect(one?.actor_is_ops).toBe(false);
    expect(one?.actor_name).not.toBe('');
    expect(one?.user_agent).toBe('Chrome on Windows');
    expect(one?.ip).toBe('127.0.0.1');
    expect(one?.customer).toBe(world.customer('Acme'));
    expect(one?.case).toBe(caseId);
  });

  it('one activity: its result; a kind that is not a record (right to work) is not recorded', async () => {
    await clear();
    expect((await get(admin, `/api/case-activities/${ids['driver-data']}/`)).statusCode).toBe(200);
    expect((await get(admin, `/api/case-activities/${ids.rtw}/`)).statusCode).toBe(200);
    const rows = await views();
    expect(rows.map((r) => [r.item_kind, r.item_id])).toEqual([
      ['driving_record', ids['driver-data']],
    ]);
    expect(rows[0]?.item_label).toMatch(/driver|driving/i);
  });

  it('a list of activities: each record on the page', async () => {
    await clear();
    expect((await get(admin, `/api/case-activities/?case=${caseId}`)).statusCode).toBe(200);
    const rows = await views();
    expect(rows.map((r) => r.item_id).sort()).toEqual(
      [ids['dbs-basic'], ids['driver-data']].sort(),
    );
  });

  it('a document: its preview (inline) as a page view, its download as a download; thumbnails not', async () => {
    await clear();
    const base = `/api/case-documents/${docId}/`;
    expect((await get(admin, `${base}download/?inline=1`)).statusCode).toBe(200);
    expect((await get(admin, `${base}download/`)).statusCode).toBe(200);
    expect((await get(admin, `${base}thumbnail/`)).statusCode).toBe(200);
    expect((await get(admin, base)).statusCode).toBe(200);
    const rows = await views(admin, '&item_kind=document');
    expect(rows.map((r) => [r.item_id, r.how]).sort()).toEqual(
      [
        [docId, 'download'],
        [docId, 'page'],
      ].sort(),
    );
    expect(rows[0]?.item_label).toBe('passport · passport.png');
    expect(await views(admin, '&item_kind=criminal_record')).toEqual([]);
  });

  it('the subject seeing their own result and document', async () => {
    await clear();
    const res = await get(subject, `/api/s/case-activities/${ids['dbs-basic']}/result/`);
    expect(res.statusCode, res.body).toBe(200);
    expect((await get(subject, `/api/s/case-documents/${docId}/download/`)).statusCode).toBe(200);
    const rows = await views(admin, '&actor_type=SubjectUser');
    expect(rows.map((r) => [r.item_kind, r.how]).sort()).toEqual(
      [
        ['criminal_record', 'page'],
        ['document', 'download'],
      ].sort(),
    );
    expect(rows.every((r) => r.actor_name !== '' && !r.actor_is_ops)).toBe(true);
  });

  it('an API key: its own viewer, named as the key', async () => {
    await clear();
    const made = await t.app.inject({
      method: 'POST',
      url: '/api/api-keys/',
      headers: admin.headers,
      payload: { name: 'HR system', scopes: ['cases.view_case', 'cases.view_caseactivity'] },
    });
    expect(made.statusCode, made.body).toBe(201);
    const secret: string = made.json().secret;
    const res = await t.app.inject({
      method: 'GET',
      url: `/api/case-activities/${ids['dbs-basic']}/`,
      headers: { authorization: `Bearer ${secret}`, 'user-agent': 'curl/8.5.0' },
    });
    expect(res.statusCode, res.body).toBe(200);
    const rows = await views(admin, '&actor_type=ApiKey');
    expect(rows.map((r) => [r.item_id, r.user_agent])).toEqual([[ids['dbs-basic'], 'curl']]);
    expect(rows[0]?.actor_name).toMatch(/^API key HR system/);
  });

  it('operations: recorded on the customer’s case, shown with their own name, marked as ops', async () => {
    await clear();
    expect((await get(ops, `/api/ops/cases/${caseId}/`)).statusCode).toBe(200);
    expect((await get(ops, `/api/ops/case-documents/${docId}/download/`)).statusCode).toBe(200);
    const rows = await views(admin, `&case=${caseId}`);
    expect(rows).toHaveLength(3);
    expect(rows.every((r) => r.actor_is_ops && r.customer === world.customer('Acme'))).toBe(true);
    const profile = await get(ops, '/api/user/');
    const me = profile.json() as { first_name?: string; last_name?: string };
    expect(rows[0]?.actor_name).toBe(`${me.first_name ?? ''} ${me.last_name ?? ''}`.trim());
    // operations read every customer's, and one customer's with ?customer=
    const all = await views(ops, `&customer=${world.customer('Acme')}`, '/api/ops');
    expect(all.map((r) => r.id).sort()).toEqual(rows.map((r) => r.id).sort());
  });
});

describe('exports are recorded as exports', () => {
  const post = (client: Client, url: string) =>
    t.app.inject({ method: 'POST', url, headers: client.headers, payload: {} });
  const records = () =>
    [
      ['criminal_record', ids['dbs-basic'] ?? 0],
      ['driving_record', ids['driver-data'] ?? 0],
    ].sort();

  it('the case’s PDF: each record on the case, by whom; another customer’s case (404) nothing', async () => {
    await clear();
    const url = `/api/cases/${caseId}/log-pdf-generation/`;
    expect((await post(otherAdmin, url)).statusCode).toBe(404);
    expect(await t.owner((tx) => tx.select().from(recordViews))).toEqual([]);
    const res = await post(admin, url);
    expect(res.statusCode, res.body).toBe(200);
    const rows = await views(admin, `&case=${caseId}`);
    expect(rows.map((r) => [r.item_kind, r.item_id]).sort()).toEqual(records());
    expect(rows.every((r) => r.how === 'export' && r.actor_type === 'ProductUser')).toBe(true);
    // the PDF does not count as the page: a view of the case is its own row
    expect((await get(admin, `/api/cases/${caseId}/`)).statusCode).toBe(200);
    const both = await views(admin, `&case=${caseId}`);
    expect(both.map((r) => r.how).sort()).toEqual(['export', 'export', 'page', 'page']);
  });

  it('the case list’s CSV: each record on every case exported, and only those', async () => {
    await clear();
    const none = await get(admin, '/api/cases/export/?search=nobody-by-this-name');
    expect(none.statusCode).toBe(200);
    expect(await t.owner((tx) => tx.select().from(recordViews))).toEqual([]);
    const res = await get(admin, '/api/cases/export/?search=Seen');
    expect(res.statusCode, res.body).toBe(200);
    expect(csvFirstColumnIds(res.body)).toEqual([caseId]);
    const rows = await views(admin);
    expect(rows.map((r) => [r.item_kind, r.item_id]).sort()).toEqual(records());
    expect(rows.every((r) => r.how === 'export' && r.case === caseId)).toBe(true);
    // the whole list: this customer's cases only (the other customer's record stays unseen)
    expect((await get(admin, '/api/cases/export/')).statusCode).toBe(200);
    expect((await views(admin)).every((r) => r.customer === world.customer('Acme'))).toBe(true);
    expect(await views(otherAdmin)).toEqual([]);
  });
});

describe('csvFirstColumnIds', () => {
  it('reads the first cell of each row after the header, quoted cells and line breaks allowed', () => {
    expect(csvFirstColumnIds('id,name\r\n12,Ann\r\n13,"Lee, ""B""\r\n14"\r\n15,x\r\n')).toEqual([
      12, 13, 15,
    ]);
    expect(csvFirstColumnIds('id\n7\n"8"\nx\n-1\n0\n9')).toEqual([7, 8, 9]);
    expect(csvFirstColumnIds('id,name\r\n')).toEqual([]);
    expect(csvFirstColumnIds({ not: 'a string' })).toEqual([]);
  });
});

describe('recordResultIds', () => {
  it("a page's activities of a record's kind; no write for a page of none", () => {
    const record = CRIMINAL_RECORD_CODES[0] ?? '';
    const page = (results: unknown[]) => JSON.stringify({ count: results.length, results });
    expect(
      recordResultIds(
        page([
          { id: 1, activity_type: record },
          { id: 2, activity_type: 'document-collection' },
          { id: 3, activity_type: 'driver-data' },
          { id: 4 },
          { id: '5', activity_type: record },
        ]),
      ),
    ).toEqual([1, 3]);
    // operations' queue of document collections: nothing to record, so no transaction
    expect(recordResultIds(page([{ id: 2, activity_type: 'document-collection' }]))).toEqual([]);
    // a record's code as another field's value (a sibling's kind) is parsed, and decides nothing
    expect(
      recordResultIds(
        page([{ id: 2, activity_type: 'document-collection', case: { activity_type: record } }]),
      ),
    ).toEqual([]);
    expect(recordResultIds(`{"results":[{"id":1,"activity_type":"${record}"}`)).toEqual([]);
    expect(recordResultIds('not json')).toEqual([]);
    expect(recordResultIds({ results: [] })).toEqual([]);
  });
});

describe('folded, and only what was seen', () => {
  it('repeated views of one item by one person are one row, counted, with first and last time', async () => {
    await clear();
    const url = `/api/case-activities/${ids['dbs-basic']}/`;
    const start = t.clock.now();
    for (let i = 0; i < 3; i++) {
      expect((await get(admin, url)).statusCode).toBe(200);
      t.clock.advance(60_000);
    }
    const [row, ...rest] = await rowsOf(ids['dbs-basic'] ?? 0);
    expect(rest).toEqual([]);
    expect(row?.count).toBe(3);
    expect(row?.firstSeenAt.getTime()).toBe(start.getTime());
    expect(row?.lastSeenAt.getTime()).toBe(start.getTime() + 120_000);
    // another person's view is their own row
    expect((await get(ops, `/api/ops/cases/${caseId}/`)).statusCode).toBe(200);
    expect(await rowsOf(ids['dbs-basic'] ?? 0)).toHaveLength(2);
  });

  it('a 403 or a 404 records nothing', async () => {
    await clear();
    // another customer's case and document: 404
    expect((await get(otherAdmin, `/api/cases/${caseId}/`)).statusCode).toBe(404);
    expect((await get(otherAdmin, `/api/case-documents/${docId}/download/`)).statusCode).toBe(404);
    expect((await get(admin, `/api/case-activities/${ids.rtw}999/`)).statusCode).toBe(404);
    // the subject asking for another's result: 404
    const [otherAct] = await t.owner((tx) =>
      tx
        .select({ id: caseActivities.id })
        .from(caseActivities)
        .where(eq(caseActivities.caseId, otherCaseId)),
    );
    expect((await get(subject, `/api/s/case-activities/${otherAct?.id}/result/`)).statusCode).toBe(
      404,
    );
    // without cases.view_caseactivity: 403
    expect((await get(noActivities, `/api/case-activities/${ids['dbs-basic']}/`)).statusCode).toBe(
      403,
    );
    expect(await t.owner((tx) => tx.select().from(recordViews))).toEqual([]);
  });
});

describe('who reads the record', () => {
  it('a customer never sees another customer’s views', async () => {
    await clear();
    expect((await get(admin, `/api/cases/${caseId}/`)).statusCode).toBe(200);
    expect((await get(otherAdmin, `/api/cases/${otherCaseId}/`)).statusCode).toBe(200);
    const mine = await views(admin);
    const theirs = await views(otherAdmin);
    expect(mine.length).toBeGreaterThan(0);
    expect(mine.every((r) => r.customer === world.customer('Acme'))).toBe(true);
    expect(theirs.every((r) => r.customer === world.customer('Other'))).toBe(true);
    expect(await views(otherAdmin, `&case=${caseId}`)).toEqual([]);
    // operations' list is ops-only
    expect((await get(admin, '/api/ops/record-views/')).statusCode).toBe(403);
  });

  it('needs the audit log permission (403 for a viewer); filters by person, kind and date', async () => {
    const v = await get(world.viewer, '/api/record-views/');
    expect(v.statusCode).toBe(403);
    const all = await views(admin);
    const actor = all[0]?.actor ?? 0;
    expect((await views(admin, `&actor=${actor}`)).length).toBe(all.length);
    expect(await views(admin, '&actor=999999')).toEqual([]);
    expect(await views(admin, '&created_after=2999-01-01')).toEqual([]);
    const day = t.clock.now().toISOString().slice(0, 10);
    expect((await views(admin, `&created_after=${day}&created_before=${day}`)).length).toBe(
      all.length,
    );
    expect((await get(admin, '/api/record-views/?created_after=soon')).statusCode).toBe(400);
    const searched = await views(admin, '&search=driv');
    expect(searched.every((r) => r.item_kind === 'driving_record')).toBe(true);
  });
});

describe('userAgentSummary', () => {
  it('names the browser and the system, or the first word', () => {
    expect(userAgentSummary(CHROME)).toBe('Chrome on Windows');
    expect(
      userAgentSummary('Mozilla/5.0 (Macintosh; Intel Mac OS X 14_0) Gecko/20100101 Firefox/133.0'),
    ).toBe('Firefox on macOS');
    expect(userAgentSummary('curl/8.5.0')).toBe('curl');
    expect(userAgentSummary(undefined)).toBe('');
  });
});

// last: moving the clock a day ends the sessions above
describe('the next window', () => {
  it('starts a new row for the same person and item', async () => {
    const before = await rowsOf(ids['dbs-basic'] ?? 0);
    t.clock.advance(VIEW_WINDOW_MS);
    const again = await login(t.app, 'admin@acme.test');
    expect((await get(again, `/api/case-activities/${ids['dbs-basic']}/`)).statusCode).toBe(200);
    const after = await rowsOf(ids['dbs-basic'] ?? 0);
    expect(after).toHaveLength(before.length + 1);
    expect(after.filter((r) => r.count === 1 && r.windowStart > t.clock.now())).toEqual([]);
  });
});
