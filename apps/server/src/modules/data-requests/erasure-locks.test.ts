// @postgres: an erasure waits for a document's and a check's row lock held by another connection
import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { erasureWorld, subjectWithCase } from '../../../test/erasure-world.js';
import type { Client, TestApp } from '../../../test/helpers.js';
import { caseActivities } from '../activities/activities.table.js';
import { createCaseDocument } from '../case-documents/case-documents.factories.js';
import { caseDocuments } from '../case-documents/case-documents.table.js';
import { erasureRequests } from './erasure-requests.table.js';

// Issue 34 (review R1): the retention run skips a row another transaction holds (it comes back
// next hour); an erasure used to skip it too, leaving the document's files or the check's
// result, and still record the request as carried out. It now waits for the lock. PGlite is one
// connection: the lock is held on a second connection, on PostgreSQL only.

let t: TestApp;
let acme: number;
let admin: Client;

const send = (method: 'GET' | 'POST', url: string, payload?: Record<string, unknown>) =>
  t.app.inject({
    method,
    url,
    headers: admin.headers,
    ...(payload === undefined ? {} : { payload }),
  });

/** A subject with a complete case: a document (page and thumbnail stored) and a DBS result. */
async function person(first: string) {
  return t.owner(async (tx) => {
    const { subject: s, case: c } = await subjectWithCase(
      tx,
      acme,
      { firstName: first, lastName: 'Held' },
      'ca-complete',
    );
    const doc = await createCaseDocument(tx, t.app.deps.storage, {
      customerId: acme,
      caseId: c.id,
    });
    const [activity] = await tx
      .update(caseActivities)
      .set({
        resultData: {
          application: { reference: 'APP-9', status: 'complete', applicant_name: `${first} Held` },
          disclosure: { status: 'clear', certificate_number: '009876543210', content: 'None' },
        },
      })
      .where(and(eq(caseActivities.customerId, acme), eq(caseActivities.caseId, c.id)))
      .returning();
    if (!activity) throw new Error('no activity');
    return { id: s.id, documentId: doc.id, activityId: activity.id };
  });
}

/**
 * Holds `FOR UPDATE` on one row in a transaction of its own (another connection) until
 * `release()`; `held` resolves once the lock is taken.
 */
function holdRow(table: 'case_documents' | 'case_activities', id: number) {
  let release = () => {};
  const gate = new Promise<void>((resolve) => {
    release = resolve;
  });
  let taken = () => {};
  const held = new Promise<void>((resolve) => {
    taken = resolve;
  });
  const done = t.owner(async (tx) => {
    await tx.execute(sql`select id from ${sql.identifier(table)} where id = ${id} for update`);
    taken();
    await gate;
  });
  return { held, release, done };
}

const stateOf = async (requestId: number) =>
  (
    await t.owner((tx) =>
      tx
        .select({ state: erasureRequests.state })
        .from(erasureRequests)
        .where(eq(erasureRequests.id, requestId)),
    )
  )[0]?.state;

beforeAll(async () => {
  ({ t, acme, admin } = await erasureWorld());
});
afterAll(() => t?.close());

describe.skipIf(!process.env.DATABASE_URL)('an erasure meeting a locked row (PostgreSQL)', () => {
  for (const table of ['case_documents', 'case_activities'] as const) {
    it(`waits for a ${table} row another transaction holds, then erases it`, async () => {
      const p = await person(table === 'case_documents' ? 'Dora' : 'Arlo');
      const created = await send('POST', '/api/erasure-requests/', { subject: p.id });
      expect(created.statusCode).toBe(201);
      const requestId: number = created.json().id;
      const lock = holdRow(table, table === 'case_documents' ? p.documentId : p.activityId);
      await lock.held;
      const decided = send('POST', `/api/erasure-requests/${requestId}/decide/`, {
        decision: 'approve',
      });
      try {
        // while the other transaction holds the row, the erasure waits: not carried out
        await new Promise((r) => setTimeout(r, 700));
        expect(await stateOf(requestId)).toBe('pending');
      } finally {
        lock.release();
        await lock.done;
      }
      const res = await decided;
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json().outcome).toMatchObject({
        removed: { case_documents: 1 },
        files: 2,
        results: 1,
      });
      const [doc] = await t.owner((tx) =>
        tx.select().from(caseDocuments).where(eq(caseDocuments.id, p.documentId)),
      );
      expect(doc?.pages).toEqual([]);
      const [a] = await t.owner((tx) =>
        tx.select().from(caseActivities).where(eq(caseActivities.id, p.activityId)),
      );
      expect(JSON.stringify(a?.resultData)).not.toContain('Held');
      expect(a?.resultData).toEqual({
        application: { reference: 'APP-9', status: 'complete' },
        disclosure: { status: 'clear', certificate_number: '009876543210' },
      });
    });
  }
});
