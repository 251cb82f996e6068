import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { and, eq, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, login } from '../../../test/helpers.js';
import { buildApp } from '../../app.js';
import type { Database } from '../../db/connection.js';
import { DEMO_PASSWORD, seedDemo } from '../../db/seed.js';
import { systemClock } from '../../platform/clock.js';
import { auditActions } from '../../platform/tables/audit.table.js';
import { LocalDiskStorage } from '../../providers/storage/local-disk.js';
import { DOCUMENT_CT } from './case-documents.table.js';
import {
  REJECTED_DOCUMENT_PROCESS,
  REJECTED_DOCUMENT_REASON,
  REJECTED_DOCUMENT_SUBJECT,
} from './demo.seed.js';

// The demo's rejected document, as `npm start` loads it: the seed and the server share a store.
let db: Database;
let drop: () => Promise<void>;
let app: FastifyInstance;
let caseId: number;
const dir = mkdtempSync(join(tmpdir(), 'kestrel-demo-documents-'));

beforeAll(async () => {
  ({ db, drop } = await createTestDatabase());
  const storage = new LocalDiskStorage(dir);
  expect(await seedDemo(db, systemClock, storage)).toBe(true);
  app = await buildApp({ db, storage });
  await app.ready();
  const rows = await db.transaction({ scope: 'all', customerId: null }, (tx) =>
    tx.execute<{ id: number }>(sql`
      select c.id from cases c
        join processes p on p.id = c.process_id
        join subjects s on s.customer_id = c.customer_id and s.id = c.subject_id
        where p.name = ${REJECTED_DOCUMENT_PROCESS} and s.email = ${REJECTED_DOCUMENT_SUBJECT}`),
  );
  expect(rows.length).toBe(1);
  caseId = Number(rows[0]?.id);
}, 120_000);
afterAll(async () => {
  await app.close();
  await drop();
  rmSync(dir, { recursive: true, force: true });
});

const get = async (headers: Record<string, string>, url: string) => {
  const res = await app.inject({ method: 'GET', url, headers });
  expect(res.statusCode, `${url}: ${res.body}`).toBe(200);
  return res.json();
};

interface Doc {
  id: number;
  document_type_code: string;
  rejected: boolean;
  rejection_reason: string;
  rejected_by: string;
  thumbnail_url: string;
}

describe('the demo’s rejected document (Acme, Riley Evans’s identity documents)', () => {
  it('customer staff see the passport rejected by operations, the utility bill kept, the collection back with the person', async () => {
    const admin = await login(app, 'admin@acme.test', DEMO_PASSWORD);
    const docs: Doc[] = (await get(admin.headers, `/api/case-documents/?case=${caseId}`)).results;
    const byType = Object.fromEntries(docs.map((d) => [d.document_type_code, d]));
    expect(byType.passport).toMatchObject({
      rejected: true,
      rejection_reason: REJECTED_DOCUMENT_REASON,
      rejected_by: 'Olivia Ops',
    });
    expect(byType['utility-bill']).toMatchObject({ rejected: false, rejection_reason: '' });
    // the files are really there: the passport's thumbnail is served
    const thumb = await app.inject({
      method: 'GET',
      url: byType.passport?.thumbnail_url ?? '',
      headers: admin.headers,
    });
    expect(thumb.statusCode).toBe(200);
    expect(thumb.headers['content-type']).toBe('image/jpeg');
    const c = await get(admin.headers, `/api/cases/${caseId}/`);
    expect(c.state).toBe('awaiting-subject');
    // the person has used their account (they uploaded the documents)
    expect(c.subject.has_account).toBe(true);
    expect(
      c.case_activities.map((a: { activity_type: string; state: string }) => [
        a.activity_type,
        a.state,
      ]),
    ).toEqual([['document-collection', 'ca-awaiting-subject']]);
  });

  it('the rejection is audited, by Olivia Ops, with its reason', async () => {
    const admin = await login(app, 'admin@acme.test', DEMO_PASSWORD);
    const docs: Doc[] = (await get(admin.headers, `/api/case-documents/?case=${caseId}`)).results;
    const passport = docs.find((d) => d.rejected);
    const rows = await db.transaction({ scope: 'all', customerId: null }, (tx) =>
      tx
        .select()
        .from(auditActions)
        .where(
          and(
            eq(auditActions.contentType, DOCUMENT_CT),
            eq(auditActions.objectId, String(passport?.id)),
            eq(auditActions.verb, 'rejected'),
          ),
        ),
    );
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      actorName: 'Olivia Ops',
      changes: { reason: REJECTED_DOCUMENT_REASON },
    });
  });

  it('the person reads why in the reopened portal, and may replace it', async () => {
    const person = await login(app, REJECTED_DOCUMENT_SUBJECT, DEMO_PASSWORD);
    const portal = await get(person.headers, `/api/s/case-portal/${caseId}/`);
    expect(portal.portal.submitted).toBe(false);
    const docs: Doc[] = (await get(person.headers, `/api/s/case-documents/?case=${caseId}`))
      .results;
    expect(docs.find((d) => d.rejected)).toMatchObject({
      document_type_code: 'passport',
      rejection_reason: REJECTED_DOCUMENT_REASON,
    });
  });
});
