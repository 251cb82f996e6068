import {
  ACCESS_LOG_RETENTION_MONTHS,
  IMPORT_ROWS_RETENTION_DAYS,
  JOB_PAYLOAD_RETENTION_DAYS,
  OUTBOX_RETENTION_DAYS,
  WEBHOOK_PAYLOAD_RETENTION_DAYS,
} from '@kestrel/domain';
import { addMonths } from 'date-fns/addMonths';
import { subMonths } from 'date-fns/subMonths';
import { and, asc, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, createCustomer, ManualClock, type TestApp } from '../../../test/helpers.js';
import type { Database } from '../../db/connection.js';
import { auditActions } from '../../platform/tables/audit.table.js';
import { outboxEmails } from '../../platform/tables/outbox.table.js';
import type { DocumentStorage } from '../../providers/storage/provider.js';
import { recordViews } from '../access-log/access-log.table.js';
import { caseDocuments } from '../case-documents/case-documents.table.js';
import { importRows, imports } from '../imports/imports.table.js';
import { outboxSms } from '../reminders/reminders.table.js';
import { webhookDeliveries, webhookEndpoints } from '../webhooks/webhooks.table.js';
import { EXPIRY_CT } from './expiry.js';
import { SCRUB_WINDOW_MS } from './redacted-copies.js';
import { createRetentionCase, type RetentionCase } from './retention.fixtures.js';
import { retentionRedactions } from './retention.table.js';
import { retentionDueJob, runRetentionDue } from './retention-job.js';

const DAY = 86_400_000;
let t: TestApp;
let acme: number;
let start: Date;

beforeAll(async () => {
  t = await buildTestApp({ config: { jobWorkers: false } });
  start = t.clock.now();
  acme = await t.owner(async (tx) => (await createCustomer(tx, { name: 'Acme' })).id);
});
afterAll(() => t.close());

/** Replaces one method of `target` (the rest bound to it): a part that fails. */
function failing<T extends object>(target: T, method: string, message: string): T {
  return new Proxy(target, {
    get(obj, prop) {
      if (prop === method) return () => Promise.reject(new Error(message));
      const v: unknown = Reflect.get(obj, prop, obj);
      return typeof v === 'function' ? v.bind(obj) : v;
    },
  });
}

const newCase = (lastName: string) =>
  t.owner((tx) =>
    createRetentionCase(tx, t.app.deps.storage, {
      customerId: acme,
      firstName: 'Sam',
      lastName,
      completedAt: start,
    }),
  );

const redactionsOf = (caseId: number) =>
  t.owner((tx) =>
    tx
      .select({ target: retentionRedactions.target, id: retentionRedactions.targetId })
      .from(retentionRedactions)
      .where(eq(retentionRedactions.caseId, caseId)),
  );

describe('the retention job when a step fails', () => {
  let c: RetentionCase;
  beforeAll(async () => {
    c = await newCase('Scrub');
    // the audit log's copy of the DBS result (as a result change records it)
    await t.owner((tx) =>
      tx.insert(auditActions).values({
        customerId: acme,
        verb: 'state_changed',
        contentType: 'cases.caseactivity',
        objectId: String(c.dbsActivityId),
        createdAt: start,
        changes: { state: ['ca-in-progress', 'ca-complete'], result_data: [{}, { nin: 'QQ1' }] },
      }),
    );
  });
  const copies = () =>
    t.owner(async (tx) =>
      JSON.stringify(
        await tx
          .select({ changes: auditActions.changes })
          .from(auditActions)
          .where(
            and(
              eq(auditActions.contentType, 'cases.caseactivity'),
              eq(auditActions.objectId, String(c.dbsActivityId)),
            ),
          ),
      ),
    );

  it('fails the job with the audit scrub’s error (pg-boss retries it); a later run scrubs, however late', async () => {
    const at = new Date(addMonths(start, 6).getTime() + DAY);
    const broken = failing<Database>(t.db, 'ownerTransaction', 'connection lost');
    const run = retentionDueJob.handle(
      {},
      { ...t.app.deps, db: broken, clock: new ManualClock(at) },
    );
    await expect(run).rejects.toThrow(/scrubbing the audit copies: connection lost/);
    // the result itself was redacted (recorded), its audit copy not yet
    expect(await redactionsOf(c.caseId)).toContainEqual({
      target: 'activity',
      id: c.dbsActivityId,
    });
    expect(await copies()).toContain('QQ1');
    // a later run, past the window an erasure is looked for in (SCRUB_WINDOW_MS): the
    // redaction's copies were never scrubbed, so they are now
    const later = new Date(at.getTime() + SCRUB_WINDOW_MS + DAY);
    await retentionDueJob.handle({}, { ...t.app.deps, clock: new ManualClock(later) });
    expect(await copies()).not.toContain('QQ1');
    expect(await copies()).toContain('"redacted":"criminal-record-content"');
  });

  it('records nothing as redacted when the store fails, and fails the job with why', async () => {
    const k = await newCase('Store');
    const at = new Date(addMonths(start, 6).getTime() + DAY);
    const store = failing<DocumentStorage>(t.app.deps.storage, 'delete', 'bucket unreachable');
    const run = retentionDueJob.handle(
      {},
      { ...t.app.deps, storage: store, clock: new ManualClock(at) },
    );
    await expect(run).rejects.toThrow(
      new RegExp(`redacting document ${k.identityDocumentId}: bucket unreachable`),
    );
    // the DBS result (no file) was redacted; neither document is recorded as redacted
    expect(await redactionsOf(k.caseId)).toEqual([{ target: 'activity', id: k.dbsActivityId }]);
    const [d] = await t.owner((tx) =>
      tx.select().from(caseDocuments).where(eq(caseDocuments.id, k.identityDocumentId)),
    );
    expect(d?.pages).toHaveLength(1);
  });
});

describe('records no rule covers (a moved clock)', () => {
  const now = () => t.clock.now();
  const ago = (days: number) => new Date(now().getTime() - days * DAY);
  let other: number;

  beforeAll(async () => {
    other = await t.owner(async (tx) => (await createCustomer(tx, { name: 'Other' })).id);
  });

  it('deletes outbox messages older than OUTBOX_RETENTION_DAYS, keeps the rest, once', async () => {
    const old = OUTBOX_RETENTION_DAYS + 1;
    const young = OUTBOX_RETENTION_DAYS - 1;
    const ids = await t.owner(async (tx) => {
      // more old emails than one batch, so the batches continue
      const emails = await tx
        .insert(outboxEmails)
        .values([
          ...Array.from({ length: 502 }, (_, i) => ({
            to: `old${i}@x.test`,
            subject: 'Your check',
            text: 'Dear Olwen Doe, 1 High St',
            createdAt: ago(old),
          })),
          { to: 'young@x.test', subject: 'Hi', text: 'Dear Young', createdAt: ago(young) },
        ])
        .returning({ id: outboxEmails.id });
      await tx.insert(outboxSms).values([
        { to: '+447700900001', body: 'Olwen, your check', createdAt: ago(old) },
        { to: '+447700900002', body: 'Young, your check', createdAt: ago(young) },
      ]);
      return emails.map((e) => e.id);
    });
    expect(ids).toHaveLength(503);
    const first = await runRetentionDue(t.app.deps);
    expect(first.errors).toEqual([]);
    const left = await t.owner(async (tx) => ({
      emails: (
        await tx.select({ to: outboxEmails.to }).from(outboxEmails).orderBy(asc(outboxEmails.id))
      ).map((r) => r.to),
      sms: (await tx.select({ to: outboxSms.to }).from(outboxSms)).map((r) => r.to),
    }));
    expect(left).toEqual({ emails: ['young@x.test'], sms: ['+447700900002'] });
    const summaries = () =>
      t.owner((tx) =>
        tx
          .select({ changes: auditActions.changes, customerId: auditActions.customerId })
          .from(auditActions)
          .where(
            and(eq(auditActions.contentType, EXPIRY_CT), sql`${auditActions.customerId} is null`),
          ),
      );
    const audited = await summaries();
    expect(audited).toHaveLength(1);
    expect(audited[0]?.changes).toMatchObject({
      removed: { outbox_emails: 502, outbox_sms: 1 },
    });
    // once: a second run removes nothing and records nothing
    await runRetentionDue(t.app.deps);
    expect(await summaries()).toHaveLength(1);
  });

  it('empties archived jobs’ payloads after JOB_PAYLOAD_RETENTION_DAYS, the rows kept', async () => {
    const insert = (id: string, archivedDaysAgo: number) =>
      t.db.ownerQuery(
        `insert into pgboss.archive (id, name, priority, data, state, retry_limit, retry_count,
           retry_delay, retry_backoff, start_after, expire_in, created_on, completed_on, keep_until,
           archived_on, output)
         values ($1, 'send-email', 0, $2::jsonb, 'completed', 2, 0, 0, false, $3, interval '15 minutes',
           $3, $3, $3, $3, $4::jsonb)`,
        [
          id,
          JSON.stringify({ to: 'olwen@x.test', text: 'Dear Olwen' }),
          ago(archivedDaysAgo).toISOString(),
          JSON.stringify({ sent: 'olwen@x.test' }),
        ],
      );
    const oldId = '00000000-0000-4000-8000-000000000001';
    const youngId = '00000000-0000-4000-8000-000000000002';
    await insert(oldId, JOB_PAYLOAD_RETENTION_DAYS + 1);
    await insert(youngId, JOB_PAYLOAD_RETENTION_DAYS - 0.5);
    await runRetentionDue(t.app.deps);
    const { rows } = await t.db.ownerQuery(
      'select id, name, state, data, output from pgboss.archive where id = any($1::uuid[]) order by id',
      [[oldId, youngId]],
    );
    expect(rows).toEqual([
      {
        id: oldId,
        name: 'send-email',
        state: 'completed',
        data: { redacted: 'retention' },
        output: null,
      },
      {
        id: youngId,
        name: 'send-email',
        state: 'completed',
        data: { to: 'olwen@x.test', text: 'Dear Olwen' },
        output: { sent: 'olwen@x.test' },
      },
    ]);
    const audited = await t.owner((tx) =>
      tx
        .select({ changes: auditActions.changes })
        .from(auditActions)
        .where(
          and(eq(auditActions.contentType, EXPIRY_CT), sql`${auditActions.customerId} is null`),
        ),
    );
    expect(audited.at(-1)?.changes).toMatchObject({ removed: { job_payloads: 1 } });
  });

  it('blanks webhook deliveries’ payloads after WEBHOOK_PAYLOAD_RETENTION_DAYS, the log kept, once', async () => {
    const old = ago(WEBHOOK_PAYLOAD_RETENTION_DAYS + 1);
    const young = ago(WEBHOOK_PAYLOAD_RETENTION_DAYS - 1);
    const payload = { subject: { first_name: 'Olwen', last_name: 'Doe' } };
    await t.owner(async (tx) => {
      const [e] = await tx
        .insert(webhookEndpoints)
        .values({
          customerId: acme,
          url: 'https://hooks.x.test/in',
          events: ['case.completed'],
          secret: 's',
        })
        .returning({ id: webhookEndpoints.id });
      if (!e) throw new Error('no endpoint');
      const delivery = (eventId: string, status: string, at: Date) => ({
        customerId: acme,
        endpointId: e.id,
        event: 'case.completed',
        eventId,
        payload,
        status,
        attempts: 2,
        responseStatus: 500,
        responseExcerpt: 'Olwen Doe refused',
        createdAt: at,
        lastAttemptAt: at,
      });
      await tx
        .insert(webhookDeliveries)
        .values([
          delivery('evt_old_delivered', 'delivered', old),
          delivery('evt_old_failed', 'failed', old),
          delivery('evt_old_pending', 'pending', old),
          delivery('evt_young', 'delivered', young),
        ]);
    });
    const deliveries = () =>
      t.owner((tx) =>
        tx
          .select({
            eventId: webhookDeliveries.eventId,
            event: webhookDeliveries.event,
            status: webhookDeliveries.status,
            attempts: webhookDeliveries.attempts,
            payload: webhookDeliveries.payload,
            excerpt: webhookDeliveries.responseExcerpt,
            createdAt: webhookDeliveries.createdAt,
          })
          .from(webhookDeliveries)
          .where(eq(webhookDeliveries.customerId, acme))
          .orderBy(asc(webhookDeliveries.eventId)),
      );
    const summaries = () =>
      t.owner((tx) =>
        tx
          .select({ changes: auditActions.changes })
          .from(auditActions)
          .where(
            and(eq(auditActions.contentType, EXPIRY_CT), sql`${auditActions.customerId} is null`),
          ),
      );
    const first = await runRetentionDue(t.app.deps);
    expect(first.errors).toEqual([]);
    const blank = { payload: { redacted: 'retention' }, excerpt: '' };
    const kept = { payload, excerpt: 'Olwen Doe refused' };
    const row = (eventId: string, status: string, at: Date, content: object) => ({
      eventId,
      event: 'case.completed',
      status,
      attempts: 2,
      createdAt: at,
      ...content,
    });
    const expected = [
      row('evt_old_delivered', 'delivered', old, blank),
      row('evt_old_failed', 'failed', old, blank),
      row('evt_old_pending', 'pending', old, kept),
      row('evt_young', 'delivered', young, kept),
    ];
    expect(await deliveries()).toEqual(expected);
    const audited = await summaries();
    expect(audited.at(-1)?.changes).toMatchObject({ removed: { webhook_payloads: 2 } });
    // once: a second run blanks nothing and records nothing
    await runRetentionDue(t.app.deps);
    expect(await deliveries()).toEqual(expected);
    expect(await summaries()).toHaveLength(audited.length);
  });

  it('empties finished imports’ rows after IMPORT_ROWS_RETENTION_DAYS, numbers and outcomes kept, once', async () => {
    const old = ago(IMPORT_ROWS_RETENTION_DAYS + 1);
    const young = ago(IMPORT_ROWS_RETENTION_DAYS - 1);
    const errors = { email: ['Enter a valid email address.'] };
    const ids = await t.owner(async (tx) => {
      const made = await tx
        .insert(imports)
        .values([
          {
            customerId: acme,
            fileName: 'old.csv',
            state: 'completed',
            createdAt: old,
            finishedAt: old,
          },
          {
            customerId: other,
            fileName: 'failed.csv',
            state: 'failed',
            createdAt: old,
            finishedAt: old,
          },
          {
            customerId: acme,
            fileName: 'young.csv',
            state: 'completed',
            createdAt: old,
            finishedAt: young,
          },
          { customerId: acme, fileName: 'running.csv', state: 'running', createdAt: old },
        ])
        .returning({ customerId: imports.customerId, id: imports.id });
      const [oldDone, oldFailed, youngDone, running] = made;
      if (!oldDone || !oldFailed || !youngDone || !running) throw new Error('no imports');
      // more rows than one batch, so the batches continue
      const rows = [
        ...Array.from({ length: 501 }, (_, i) => ({
          customerId: acme,
          importId: oldDone.id,
          rowNumber: i + 2,
          cells: ['Olwen', `olwen${i}@x.test`],
          outcome: 'imported',
          subjectId: i + 1,
        })),
        {
          customerId: other,
          importId: oldFailed.id,
          rowNumber: 2,
          cells: ['Bad', 'bad'],
          outcome: 'invalid',
          errors,
        },
        {
          customerId: acme,
          importId: youngDone.id,
          rowNumber: 2,
          cells: ['Yan', 'y@x.test'],
          outcome: 'imported',
        },
        {
          customerId: acme,
          importId: running.id,
          rowNumber: 2,
          cells: ['Run', 'r@x.test'],
          outcome: 'valid',
        },
      ];
      await tx.insert(importRows).values(rows);
      return made;
    });
    const rowsOf = (customerId: number, importId: number) =>
      t.owner((tx) =>
        tx
          .select({
            n: importRows.rowNumber,
            cells: importRows.cells,
            outcome: importRows.outcome,
            errors: importRows.errors,
          })
          .from(importRows)
          .where(and(eq(importRows.customerId, customerId), eq(importRows.importId, importId)))
          .orderBy(asc(importRows.rowNumber)),
      );
    const [oldDone, oldFailed, youngDone, running] = ids;
    if (!oldDone || !oldFailed || !youngDone || !running) throw new Error('no imports');
    const snapshot = async () => ({
      oldDone: await rowsOf(acme, oldDone.id),
      oldFailed: await rowsOf(other, oldFailed.id),
      youngDone: await rowsOf(acme, youngDone.id),
      running: await rowsOf(acme, running.id),
    });
    const first = await runRetentionDue(t.app.deps);
    expect(first.errors).toEqual([]);
    const after = await snapshot();
    expect(after.oldDone).toHaveLength(501);
    expect(after.oldDone.every((r) => r.cells.length === 0 && r.outcome === 'imported')).toBe(true);
    expect(after.oldDone[0]?.n).toBe(2);
    expect(after.oldFailed).toEqual([{ n: 2, cells: [], outcome: 'invalid', errors }]);
    expect(after.youngDone).toEqual([
      { n: 2, cells: ['Yan', 'y@x.test'], outcome: 'imported', errors: null },
    ]);
    expect(after.running).toEqual([
      { n: 2, cells: ['Run', 'r@x.test'], outcome: 'valid', errors: null },
    ]);
    const summaries = () =>
      t.owner((tx) =>
        tx
          .select({ changes: auditActions.changes })
          .from(auditActions)
          .where(
            and(eq(auditActions.contentType, EXPIRY_CT), sql`${auditActions.customerId} is null`),
          ),
      );
    const audited = await summaries();
    expect(audited.at(-1)?.changes).toMatchObject({ removed: { import_rows: 502 } });
    // once
    await runRetentionDue(t.app.deps);
    expect(await snapshot()).toEqual(after);
    expect(await summaries()).toHaveLength(audited.length);
  });

  it('deletes each customer’s access log past its period (longer criminal-record periods kept)', async () => {
    const view = (customerId: number, itemId: number, lastSeen: Date) => ({
      customerId,
      caseId: 1,
      itemKind: 'criminal_record',
      itemId,
      how: 'page',
      actorType: 'ProductUser',
      actorId: 1,
      actorName: 'Ann',
      windowStart: lastSeen,
      firstSeenAt: lastSeen,
      lastSeenAt: lastSeen,
    });
    const cutoff = subMonths(now(), ACCESS_LOG_RETENTION_MONTHS);
    const before = new Date(cutoff.getTime() - DAY);
    const after = new Date(cutoff.getTime() + DAY);
    const older = subMonths(now(), 40);
    await t.owner(async (tx) => {
      await tx
        .insert(recordViews)
        .values([
          view(acme, 1, before),
          view(acme, 2, after),
          view(other, 3, before),
          view(other, 4, older),
        ]);
      // the other customer keeps criminal-record content for 36 months: its views at least as long
      await tx.execute(sql`insert into retention_settings (customer_id, months)
        values (${other}, '{"criminal-record-content": 36}'::jsonb)`);
    });
    await runRetentionDue(t.app.deps);
    const kept = await t.owner(async (tx) =>
      (
        await tx
          .select({ c: recordViews.customerId, item: recordViews.itemId })
          .from(recordViews)
          .orderBy(asc(recordViews.itemId))
      ).map((r) => [r.c, r.item]),
    );
    expect(kept).toEqual([
      [acme, 2],
      [other, 3],
    ]);
    const audit = (customerId: number) =>
      t.owner((tx) =>
        tx
          .select({ changes: auditActions.changes, repr: auditActions.objectRepr })
          .from(auditActions)
          .where(
            and(eq(auditActions.contentType, EXPIRY_CT), eq(auditActions.customerId, customerId)),
          ),
      );
    expect(await audit(acme)).toEqual([
      {
        repr: 'Access log: 1 record of views removed (retention)',
        changes: expect.objectContaining({ removed: { record_views: 1 }, months: 24 }),
      },
    ]);
    expect((await audit(other))[0]?.changes).toMatchObject({ months: 36 });
    // once
    await runRetentionDue(t.app.deps);
    expect(await audit(acme)).toHaveLength(1);
    expect(await audit(other)).toHaveLength(1);
  });
});

describe('one clock: the app’s (issue 34, L4)', () => {
  it('decides every expiry by the run’s clock, years from the database’s', async () => {
    const saved = t.clock.now();
    // years before the database's clock: a statement reading now() would remove everything
    const appNow = new Date('2021-03-01T12:00:00Z');
    const at = (days: number) => new Date(appNow.getTime() - days * DAY);
    const lonely = await t.owner(async (tx) => (await createCustomer(tx, { name: 'Clock' })).id);
    await t.owner(async (tx) => {
      await tx.insert(outboxEmails).values([
        {
          to: 'clock-old@x.test',
          subject: 'a',
          text: 'a',
          createdAt: at(OUTBOX_RETENTION_DAYS + 1),
        },
        {
          to: 'clock-young@x.test',
          subject: 'b',
          text: 'b',
          createdAt: at(OUTBOX_RETENTION_DAYS - 1),
        },
      ]);
      await tx.insert(outboxSms).values([
        { to: '+447700900801', body: 'old', createdAt: at(OUTBOX_RETENTION_DAYS + 1) },
        { to: '+447700900802', body: 'young', createdAt: at(OUTBOX_RETENTION_DAYS - 1) },
      ]);
      const seen = (itemId: number, lastSeen: Date) => ({
        customerId: lonely,
        caseId: 1,
        itemKind: 'criminal_record',
        itemId,
        how: 'page',
        actorType: 'ProductUser',
        actorId: 1,
        actorName: 'Ann',
        windowStart: lastSeen,
        firstSeenAt: lastSeen,
        lastSeenAt: lastSeen,
      });
      await tx
        .insert(recordViews)
        .values([
          seen(801, subMonths(at(1), ACCESS_LOG_RETENTION_MONTHS)),
          seen(802, subMonths(at(-1), ACCESS_LOG_RETENTION_MONTHS)),
        ]);
    });
    t.clock.set(appNow);
    try {
      expect((await runRetentionDue(t.app.deps)).errors).toEqual([]);
    } finally {
      t.clock.set(saved);
    }
    const left = await t.owner(async (tx) => ({
      emails: (
        await tx
          .select({ to: outboxEmails.to })
          .from(outboxEmails)
          .where(sql`${outboxEmails.to} like 'clock-%'`)
      ).map((r) => r.to),
      sms: (
        await tx
          .select({ to: outboxSms.to })
          .from(outboxSms)
          .where(sql`${outboxSms.to} like '+4477009008%'`)
      ).map((r) => r.to),
      views: (
        await tx
          .select({ item: recordViews.itemId })
          .from(recordViews)
          .where(eq(recordViews.customerId, lonely))
      ).map((r) => r.item),
    }));
    expect(left).toEqual({
      emails: ['clock-young@x.test'],
      sms: ['+447700900802'],
      views: [802],
    });
  });
});
