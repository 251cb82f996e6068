import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { addMonths } from 'date-fns/addMonths';
import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  buildTestApp,
  type Client,
  createAdminAndViewer,
  createCase,
  createCustomer,
  createProcess,
  createSubjectUser,
  login,
  ManualClock,
  type TestApp,
} from '../../../test/helpers.js';
import { auditActions } from '../../platform/tables/audit.table.js';
import type { DocumentStorage } from '../../providers/storage/provider.js';
import { S3Storage } from '../../providers/storage/s3-client.js';
import { caseActivities } from '../activities/activities.table.js';
import { activityTypes } from '../bootstrap/bootstrap.table.js';
import { caseBasicDetails } from '../case-data/case-data.table.js';
import { caseDocuments, type StoredPage } from '../case-documents/case-documents.table.js';
import { checkCallbackInbox } from '../checks/callbacks.table.js';
import { createRetentionCase, type RetentionCase } from './retention.fixtures.js';
import { retentionRedactions } from './retention.table.js';
import { runRetentionDue } from './retention-job.js';

const DAY = 86_400_000;

let t: TestApp;
let acme: number;
let other: number;
let admin: Client;
let viewer: Client;
let otherAdmin: Client;
let start: Date;

beforeAll(async () => {
  t = await buildTestApp({ config: { jobWorkers: false } });
  start = t.clock.now();
  await t.owner(async (tx) => {
    acme = (await createCustomer(tx, { name: 'Acme' })).id;
    other = (await createCustomer(tx, { name: 'Other' })).id;
    await createAdminAndViewer(tx, acme);
    await createAdminAndViewer(tx, other, 'other.test');
  });
  admin = await login(t.app, 'admin@acme.test');
  viewer = await login(t.app, 'viewer@acme.test');
  otherAdmin = await login(t.app, 'admin@other.test');
});
afterAll(() => t.close());

const send = (
  client: Client,
  method: 'GET' | 'PUT' | 'POST',
  url: string,
  payload?: Record<string, unknown>,
) =>
  t.app.inject({
    method,
    url,
    headers: client.headers,
    ...(payload === undefined ? {} : { payload }),
  });

/** The retention job as if the clock said `at` (the server's sessions keep theirs). */
const runAt = (at: Date, customerId: number, storage?: DocumentStorage) =>
  runRetentionDue(
    { ...t.app.deps, clock: new ManualClock(at), ...(storage ? { storage } : {}) },
    customerId,
  );

const doc = (id: number) =>
  t.owner(async (tx) => {
    const [d] = await tx.select().from(caseDocuments).where(eq(caseDocuments.id, id));
    if (!d) throw new Error('no document');
    return d;
  });
const result = (id: number) =>
  t.owner(async (tx) => {
    const [a] = await tx.select().from(caseActivities).where(eq(caseActivities.id, id));
    if (!a) throw new Error('no activity');
    return a.resultData;
  });
const redactions = (caseId: number) =>
  t.owner((tx) =>
    tx.select().from(retentionRedactions).where(eq(retentionRedactions.caseId, caseId)),
  );
const stored = async (storage: DocumentStorage, pages: StoredPage[]) =>
  (
    await Promise.all(pages.flatMap((p) => [storage.get(p.key), storage.get(p.thumbnailKey)]))
  ).filter((s) => s !== null).length;

const newCase = (
  customerId: number,
  completedAt: Date,
  extra: { state?: 'complete' | 'cancelled'; archivedAt?: Date | null } = {},
  storage: DocumentStorage = t.app.deps.storage,
) =>
  t.owner((tx) =>
    createRetentionCase(tx, storage, {
      customerId,
      firstName: 'Rhea',
      lastName: `Case${Math.floor(Math.random() * 1e6)}`,
      completedAt,
      ...extra,
    }),
  );

describe('/api/customer-account/retention/', () => {
  it('shows the safe defaults, then the administrator’s periods (audited)', async () => {
    const res = await send(admin, 'GET', '/api/customer-account/retention/');
    expect(res.statusCode).toBe(200);
    expect(res.json().inspector).toBeNull();
    expect(
      res.json().rules.find((r: { code: string }) => r.code === 'criminal-record-content'),
    ).toMatchObject({ months: 6, default_months: 6, data: 'result-content', basis: 'decision' });

    const body = {
      inspector: 'Ofsted',
      next_inspection_date: '2030-01-01',
      rules: [{ code: 'driving-results', months: 3 }],
    };
    expect((await send(viewer, 'PUT', '/api/customer-account/retention/', body)).statusCode).toBe(
      403,
    );
    const bad = await send(admin, 'PUT', '/api/customer-account/retention/', {
      ...body,
      next_inspection_date: null,
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().next_inspection_date).toBeDefined();
    const put = await send(admin, 'PUT', '/api/customer-account/retention/', body);
    expect(put.statusCode).toBe(200);
    expect(put.json()).toMatchObject({ inspector: 'Ofsted', next_inspection_date: '2030-01-01' });
    expect(
      put.json().rules.find((r: { code: string }) => r.code === 'driving-results').months,
    ).toBe(3);
    const audit = await t.owner((tx) =>
      tx
        .select()
        .from(auditActions)
        .where(
          and(
            eq(auditActions.customerId, acme),
            eq(auditActions.contentType, 'retention.retentionsettings'),
          ),
        ),
    );
    expect(audit).toHaveLength(1);
    expect(audit[0]?.changes).toMatchObject({
      inspector: [null, 'Ofsted'],
      'driving-results': [null, 3],
    });
    // another customer's settings are its own
    const theirs = await send(otherAdmin, 'GET', '/api/customer-account/retention/');
    expect(theirs.json().inspector).toBeNull();
    // back to no inspector for the tests below
    await send(admin, 'PUT', '/api/customer-account/retention/', {
      inspector: null,
      next_inspection_date: null,
      rules: [
        { code: 'identity-images', months: 3 },
        { code: 'driving-results', months: 2 },
      ],
    });
  });
});

describe('a case’s legal hold', () => {
  it('is set and lifted with a reason by staff who may change cases, audited, 404 elsewhere', async () => {
    const c = await newCase(acme, start);
    const url = `/api/cases/${c.caseId}/legal-hold/`;
    expect((await send(viewer, 'POST', url, { reason: 'Claim' })).statusCode).toBe(403);
    expect((await send(otherAdmin, 'POST', url, { reason: 'Claim' })).statusCode).toBe(404);
    expect((await send(admin, 'POST', url, { reason: ' ' })).statusCode).toBe(400);
    const set = await send(admin, 'POST', url, { reason: 'Tribunal claim' });
    expect(set.statusCode).toBe(200);
    expect(set.json()).toMatchObject({ legal_hold: true, hold_reason: 'Tribunal claim' });
    const shown = await send(viewer, 'GET', `/api/cases/${c.caseId}/retention/`);
    expect(shown.json().legal_hold).toBe(true);
    const lift = await send(admin, 'POST', `${url}lift/`, { reason: 'Settled' });
    expect(lift.json()).toMatchObject({ legal_hold: false, hold_reason: 'Settled' });
    const audit = await t.owner((tx) =>
      tx
        .select()
        .from(auditActions)
        .where(
          and(
            eq(auditActions.contentType, 'retention.caseretention'),
            eq(auditActions.objectId, String(c.caseId)),
          ),
        ),
    );
    expect(audit.map((a) => [a.verb, a.objectRepr])).toEqual([
      ['legal_hold_set', `Legal hold set on case ${c.caseId}`],
      ['legal_hold_lifted', `Legal hold lifted on case ${c.caseId}`],
    ]);
  });
});

describe('the retention job (a moved clock)', () => {
  let c: RetentionCase;
  let identityPages: StoredPage[];
  let rtwPages: StoredPage[];

  beforeAll(async () => {
    c = await newCase(acme, start);
    identityPages = (await doc(c.identityDocumentId)).pages;
    rtwPages = (await doc(c.rtwDocumentId)).pages;
  });

  it('redacts identity images after the customer’s period, files and thumbnails included', async () => {
    const storage = t.app.deps.storage;
    expect(await stored(storage, identityPages)).toBe(2);
    await runAt(new Date(addMonths(start, 3).getTime() - DAY), acme);
    expect((await doc(c.identityDocumentId)).pages).toHaveLength(1);

    await runAt(new Date(addMonths(start, 3).getTime() + DAY), acme);
    expect((await doc(c.identityDocumentId)).pages).toEqual([]);
    expect(await stored(storage, identityPages)).toBe(0);
    // nothing else yet: the DBS result and the right-to-work evidence stay
    expect((await result(c.dbsActivityId)).applicant).toBeDefined();
    expect(await stored(storage, rtwPages)).toBe(2);
    const rows = await redactions(c.caseId);
    expect(rows.map((r) => [r.target, r.targetId, r.rule])).toEqual([
      ['document', c.identityDocumentId, 'identity-images'],
    ]);
    expect(rows[0]?.removed).toEqual(['page 1', 'page 1 thumbnail']);
    // audited as a redaction (its own verb, not a generic update)
    const audit = await t.owner((tx) =>
      tx
        .select({ verb: auditActions.verb, repr: auditActions.objectRepr })
        .from(auditActions)
        .where(
          and(
            eq(auditActions.contentType, 'cases.casedocument'),
            eq(auditActions.objectId, String(c.identityDocumentId)),
          ),
        ),
    );
    expect(audit).toEqual([
      {
        verb: 'redacted',
        repr: `Document ${c.identityDocumentId} redacted (identity-images)`,
      },
    ]);
  });

  it('keeps a DBS result’s date, reference, certificate number and outcome after six months, once', async () => {
    const at = new Date(addMonths(start, 6).getTime() + DAY);
    await runAt(at, acme);
    const kept = await result(c.dbsActivityId);
    expect(Object.keys(kept).sort()).toEqual(['application', 'disclosure']);
    expect(kept.application).toEqual({
      reference: expect.any(String),
      received_date: expect.any(String),
      status: 'Complete',
    });
    expect(kept.disclosure).toEqual({
      status: 'clear',
      certificate_number: expect.any(String),
      issue_date: expect.any(String),
    });
    const rule = (await redactions(c.caseId)).find((r) => r.rule === 'criminal-record-content');
    expect(rule?.removed).toEqual(['applicant', 'application', 'barred_lists', 'tracking']);
    expect(rule?.redactedAt.toISOString()).toBe(at.toISOString());
    // the certificate images (documents of the DBS check): none here; a second run does nothing
    const again = await runAt(new Date(at.getTime() + DAY), acme);
    expect(again.redacted).toBe(0);
    expect(await redactions(c.caseId)).toHaveLength(2);
    // the panels' source: the case's redactions
    const res = await send(viewer, 'GET', `/api/cases/${c.caseId}/retention/`);
    expect(res.json().redactions.map((r: { rule: string }) => r.rule)).toEqual([
      'identity-images',
      'criminal-record-content',
    ]);
  });

  it('deletes right-to-work evidence the period after the recorded end of employment', async () => {
    await runAt(addMonths(start, 40), acme);
    expect(await stored(t.app.deps.storage, rtwPages)).toBe(2); // no end recorded: kept
    const res = await send(admin, 'PUT', `/api/cases/${c.caseId}/employment-end/`, {
      employment_ended_on: start.toISOString().slice(0, 10),
    });
    expect(res.statusCode).toBe(200);
    await runAt(new Date(addMonths(start, 24).getTime() - 2 * DAY), acme);
    expect(await stored(t.app.deps.storage, rtwPages)).toBe(2);
    await runAt(new Date(addMonths(start, 24).getTime() + DAY), acme);
    expect(await stored(t.app.deps.storage, rtwPages)).toBe(0);
    expect((await doc(c.rtwDocumentId)).pages).toEqual([]);
  });

  it('redacts nothing of a case under a legal hold, until it is lifted', async () => {
    const held = await newCase(acme, start);
    await send(admin, 'POST', `/api/cases/${held.caseId}/legal-hold/`, { reason: 'Claim' });
    await runAt(addMonths(start, 30), acme);
    expect(await redactions(held.caseId)).toEqual([]);
    expect((await result(held.dbsActivityId)).applicant).toBeDefined();
    expect((await doc(held.identityDocumentId)).pages).toHaveLength(1);
    const due = await send(admin, 'GET', '/api/customer-account/retention/due/');
    expect(due.json().results.some((r: { case_id: number }) => r.case_id === held.caseId)).toBe(
      false,
    );
    await send(admin, 'POST', `/api/cases/${held.caseId}/legal-hold/lift/`, { reason: 'Over' });
    await runAt(addMonths(start, 30), acme);
    expect((await redactions(held.caseId)).map((r) => r.rule).sort()).toEqual([
      'criminal-record-content',
      'identity-images',
    ]);
  });

  it('purges a cancelled or archived case after its period, keeping the case itself', async () => {
    const closed = await newCase(acme, start, { archivedAt: start });
    await t.owner((tx) =>
      tx.insert(caseBasicDetails).values({ customerId: acme, caseId: closed.caseId }),
    );
    // a purge runs at 12 months; the 6-month rules have run first
    await runAt(addMonths(start, 12), acme);
    await runAt(new Date(addMonths(start, 12).getTime() + DAY), acme);
    const rows = await redactions(closed.caseId);
    expect(rows.find((r) => r.target === 'case')?.removed).toEqual(
      expect.arrayContaining([`document ${closed.rtwDocumentId}`, 'case_basic_details']),
    );
    expect((await doc(closed.rtwDocumentId)).pages).toEqual([]);
    const details = await t.owner((tx) =>
      tx.select().from(caseBasicDetails).where(eq(caseBasicDetails.caseId, closed.caseId)),
    );
    expect(details).toEqual([]);
    const purged = await t.owner((tx) =>
      tx
        .select({ verb: auditActions.verb })
        .from(auditActions)
        .where(
          and(
            eq(auditActions.contentType, 'cases.case'),
            eq(auditActions.objectId, String(closed.caseId)),
          ),
        ),
    );
    expect(purged.map((a) => a.verb)).toContain('redacted');
    expect((await runAt(addMonths(start, 13), acme)).redacted).toBe(0);
  });

  it('scrubs the personal values of a purged case’s case-data audit rows, who and when kept', async () => {
    const closed = await newCase(acme, start, { archivedAt: start });
    const open = await newCase(acme, start);
    // the case data's audit rows as case-data.service records them (raw: the log is insert-only)
    const audit = (caseId: number) =>
      t.owner(async (tx) => {
        const [row] = await tx.execute<{ id: number }>(sql`
          insert into audit_actions (customer_id, actor_type, actor_id, actor_name, verb,
            content_type, object_id, object_repr, changes, created_at)
          values (${acme}, 'SubjectUser', 7, 'Rhea Case', 'updated', 'cases.caseaddress', '3',
            ${`Address of case ${caseId}`},
            ${JSON.stringify({ case: caseId, fields: ['line1', 'postcode'], personal: { line1: [null, '1 High St'], postcode: [null, 'AB1 2CD'] } })}::jsonb,
            ${start.toISOString()}) returning id`);
        return Number(row?.id);
      });
    const purgedRow = await audit(closed.caseId);
    const openRow = await audit(open.caseId);
    const raw = (id: number) =>
      t.owner(async (tx) => {
        const [row] = await tx.execute<Record<string, unknown>>(sql`
          select actor_type, actor_id, actor_name, verb, content_type, object_repr, changes,
            created_at = ${start.toISOString()}::timestamptz as same_time
          from audit_actions where id = ${id}`);
        return row;
      });
    await runAt(addMonths(start, 12), acme);
    expect(await raw(purgedRow)).toEqual({
      actor_type: 'SubjectUser',
      actor_id: 7,
      actor_name: 'Rhea Case',
      verb: 'updated',
      content_type: 'cases.caseaddress',
      object_repr: `Address of case ${closed.caseId}`,
      changes: { case: closed.caseId, fields: ['line1', 'postcode'], redacted: 'closed-cases' },
      same_time: true,
    });
    // a case not purged keeps its rows
    expect((await raw(openRow))?.changes).toEqual({
      case: open.caseId,
      fields: ['line1', 'postcode'],
      personal: { line1: [null, '1 High St'], postcode: [null, 'AB1 2CD'] },
    });
  });

  it('redacts driving results per the customer’s rule, keeping their outcome', async () => {
    const id = await t.owner(async (tx) => {
      const p = await createProcess(tx, { customerId: acme, requirements: ['licence-check'] });
      const s = await createSubjectUser(tx, { customerId: acme, password: null });
      const k = await createCase(tx, {
        customerId: acme,
        processId: p.id,
        subjectId: s.id,
        activityStates: ['ca-complete'],
        state: 'complete',
        createdAt: start,
        completedAt: start,
      });
      const [a] = await tx
        .select({ id: caseActivities.id })
        .from(caseActivities)
        .innerJoin(activityTypes, eq(activityTypes.id, caseActivities.activityTypeId))
        .where(eq(caseActivities.caseId, k.id));
      if (!a) throw new Error('no activity');
      await tx
        .update(caseActivities)
        .set({
          resultData: { status: 'valid', address: '1 High St', last_check_date: '2026-01-01' },
          // the provider log: what was asked, and the service's answer with the whole record
          processingData: {
            provider: 'davis',
            reference: 'DV-1',
            idempotency_key: `kestrel-ca-${a.id}`,
            attempts: 1,
            last_error: null,
            events: [
              { at: start.toISOString(), type: 'request', body: { reference: 'r1' } },
              {
                at: start.toISOString(),
                type: 'answer',
                body: { status: 'Checked', address: '1 High St', driver_id: 'DV-1' },
              },
              { at: start.toISOString(), type: 'error', body: { message: 'timed out' } },
            ],
          },
        })
        .where(eq(caseActivities.id, a.id));
      // the audit log's copy of the result's change (as writeActivity records it)
      await tx.insert(auditActions).values({
        customerId: acme,
        verb: 'state_changed',
        contentType: 'cases.caseactivity',
        objectId: String(a.id),
        changes: {
          state: ['ca-in-progress', 'ca-complete'],
          result_data: [{}, { status: 'valid', address: '1 High St' }],
        },
      });
      // a callback about it, applied and kept raw in the inbox
      await tx.insert(checkCallbackInbox).values({
        customerId: acme,
        caseActivityId: a.id,
        provider: 'davis',
        eventId: `retention-${a.id}`,
        body: { status: 'Checked', address: '1 High St' },
        appliedAt: start,
        outcome: 'applied',
      });
      return a.id;
    });
    const inbox = () =>
      t.owner(async (tx) =>
        (
          await tx
            .select({ body: checkCallbackInbox.body, outcome: checkCallbackInbox.outcome })
            .from(checkCallbackInbox)
            .where(eq(checkCallbackInbox.caseActivityId, id))
        ).map((r) => [r.body, r.outcome]),
      );
    const audited = () =>
      t.owner(async (tx) =>
        (
          await tx
            .select({ changes: auditActions.changes })
            .from(auditActions)
            .where(
              and(
                eq(auditActions.contentType, 'cases.caseactivity'),
                eq(auditActions.objectId, String(id)),
              ),
            )
        ).map((r) => r.changes),
      );
    const raw = () =>
      t.owner(async (tx) => {
        const [row] = await tx
          .select({ processing: caseActivities.processingData })
          .from(caseActivities)
          .where(eq(caseActivities.id, id));
        return JSON.stringify(row?.processing);
      });
    await runAt(new Date(addMonths(start, 2).getTime() - DAY), acme);
    expect((await result(id)).address).toBe('1 High St');
    expect(await raw()).toContain('1 High St');
    expect(JSON.stringify(await audited())).toContain('1 High St');
    expect(JSON.stringify(await inbox())).toContain('1 High St');
    await runAt(new Date(addMonths(start, 2).getTime() + DAY), acme);
    expect(await result(id)).toEqual({ status: 'valid', last_check_date: '2026-01-01' });
    // the provider log keeps when and what happened, not what the provider said
    const log = await raw();
    expect(log).not.toContain('1 High St');
    expect(log).not.toContain('DV-1"}');
    expect(JSON.parse(log).events.map((e: { type: string }) => e.type)).toEqual([
      'request',
      'answer',
      'error',
    ]);
    expect(log).toContain('timed out');
    // the audit log keeps the state change and the redaction, not the result's content
    const trail = await audited();
    expect(JSON.stringify(trail)).not.toContain('1 High St');
    expect(trail).toContainEqual({
      state: ['ca-in-progress', 'ca-complete'],
      redacted: 'driving-results',
    });
    // the callback's body goes, the record of its arrival stays
    expect(await inbox()).toEqual([[{ redacted: 'driving-results' }, 'applied']]);
  });
});

describe('an inspected customer and an S3 bucket', () => {
  const objects = new Map<string, Buffer>();
  let server: Server;
  let s3: S3Storage;

  beforeAll(async () => {
    server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (b: Buffer) => chunks.push(b));
      req.on('end', () => {
        const key = decodeURIComponent(req.url ?? '');
        if (req.method === 'PUT') {
          objects.set(key, Buffer.concat(chunks));
          res.writeHead(200).end();
        } else if (req.method === 'GET') {
          const o = objects.get(key);
          if (o) res.writeHead(200, { 'content-length': o.length }).end(o);
          else res.writeHead(404).end('<Error><Code>NoSuchKey</Code></Error>');
        } else if (req.method === 'DELETE') {
          objects.delete(key);
          res.writeHead(204).end();
        } else res.writeHead(405).end();
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    s3 = new S3Storage({
      endpoint: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
      region: 'eu-west-2',
      bucket: 'docs',
      accessKeyId: 'AKID',
      secretAccessKey: 'secret',
      forcePathStyle: true,
      timeoutMs: 5_000,
    });
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it('keeps criminal-record information until the next inspection, then removes it from the bucket', async () => {
    const inspection = addMonths(start, 9);
    await send(otherAdmin, 'PUT', '/api/customer-account/retention/', {
      inspector: 'CQC',
      next_inspection_date: inspection.toISOString().slice(0, 10),
      rules: [],
    });
    const c = await newCase(other, start, {}, s3);
    const pages = (await doc(c.identityDocumentId)).pages;
    expect(await stored(s3, pages)).toBe(2);
    const before = objects.size;
    await runAt(new Date(addMonths(start, 6).getTime() + DAY), other, s3);
    // identity images follow their own six months; the DBS result waits for the inspection
    expect(await stored(s3, pages)).toBe(0);
    expect(objects.size).toBe(before - 2);
    expect((await result(c.dbsActivityId)).applicant).toBeDefined();
    await runAt(new Date(inspection.getTime() + 2 * DAY), other, s3);
    expect((await result(c.dbsActivityId)).applicant).toBeUndefined();
    // the other customer's job never touched acme's items, nor acme's this one's
    expect((await redactions(c.caseId)).every((r) => r.customerId === other)).toBe(true);
  });
});

describe('/api/customer-account/retention/due/', () => {
  it('lists what falls due in the next 30 days, by case and subject, with the rule', async () => {
    const soon = new Date(addMonths(t.clock.now(), -3).getTime() + 10 * DAY);
    const c = await newCase(acme, soon);
    const res = await send(admin, 'GET', '/api/customer-account/retention/due/');
    expect(res.statusCode).toBe(200);
    const mine = res.json().results.filter((r: { case_id: number }) => r.case_id === c.caseId);
    expect(mine).toEqual([
      expect.objectContaining({
        target: 'document',
        target_id: c.identityDocumentId,
        rule: 'identity-images',
        rule_name: 'Identity document images',
        subject_id: c.subjectId,
      }),
    ]);
    expect(
      (await send(otherAdmin, 'GET', '/api/customer-account/retention/due/')).json().results,
    ).not.toContainEqual(expect.objectContaining({ case_id: c.caseId }));
  });
});
