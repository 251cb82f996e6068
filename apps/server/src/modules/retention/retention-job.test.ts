import { addMonths } from 'date-fns/addMonths';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, createCustomer, ManualClock, type TestApp } from '../../../test/helpers.js';
import type { Database } from '../../db/connection.js';
import { auditActions } from '../../platform/tables/audit.table.js';
import type { DocumentStorage } from '../../providers/storage/provider.js';
import { caseDocuments } from '../case-documents/case-documents.table.js';
import { createRetentionCase, type RetentionCase } from './retention.fixtures.js';
import { retentionRedactions } from './retention.table.js';
import { retentionDueJob } from './retention-job.js';

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

  it('fails the job with the audit scrub’s error (pg-boss retries it); the retry scrubs', async () => {
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
    // the retry
    await retentionDueJob.handle({}, { ...t.app.deps, clock: new ManualClock(at) });
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
