import { and, eq, inArray, ne, sql } from 'drizzle-orm';
import type { DemoSeedContext } from '../../platform/module.js';
import { caseActivities } from '../activities/activities.table.js';
import { activityTypes } from '../bootstrap/bootstrap.table.js';
import { caseDocuments } from '../case-documents/case-documents.table.js';
import { productUsers } from '../users/users.table.js';
import {
  CRIMINAL_RECORD_CODES,
  DRIVING_RECORD_CODES,
  VIEW_WINDOW_MS,
} from './access-log.service.js';
import { recordViews } from './access-log.table.js';

const HOUR = 60 * 60_000;

/**
 * Who saw what on the demo (issue 34): on Acme's cases with a criminal-record or driving result
 * and on their documents, the administrator read the results (several times a day, folded) and
 * downloaded a document, operations (Olivia Ops) looked at a result, as the product records them.
 */
export async function seedRecordViews(ctx: DemoSeedContext): Promise<void> {
  const { tx, clock } = ctx;
  const customerId = ctx.customers.acme;
  const admin = ctx.users['admin@acme.test'];
  const ops = ctx.users['ops@kestrel.test'];
  if (!admin || !ops) return;
  const names = await tx
    .select({ id: productUsers.id, first: productUsers.firstName, last: productUsers.lastName })
    .from(productUsers)
    .where(inArray(productUsers.id, [admin.id, ops.id]));
  const nameOf = (id: number, fallback: string) => {
    const u = names.find((n) => n.id === id);
    return u ? `${u.first} ${u.last}`.trim() || fallback : fallback;
  };
  const results = await tx
    .select({
      id: caseActivities.id,
      caseId: caseActivities.caseId,
      code: activityTypes.code,
      name: activityTypes.name,
    })
    .from(caseActivities)
    .innerJoin(activityTypes, eq(activityTypes.id, caseActivities.activityTypeId))
    .where(
      and(
        eq(caseActivities.customerId, customerId),
        inArray(activityTypes.code, [...CRIMINAL_RECORD_CODES, ...DRIVING_RECORD_CODES]),
        ne(caseActivities.resultData, sql`'{}'::jsonb`),
      ),
    )
    .orderBy(caseActivities.id)
    .limit(12);
  const documents = await tx
    .select({
      id: caseDocuments.id,
      caseId: caseDocuments.caseId,
      type: caseDocuments.documentType,
    })
    .from(caseDocuments)
    .where(eq(caseDocuments.customerId, customerId))
    .orderBy(caseDocuments.id)
    .limit(4);
  const now = clock.now().getTime();
  const at = (hoursAgo: number) => new Date(now - hoursAgo * HOUR);
  const windowOf = (d: Date) => new Date(Math.floor(d.getTime() / VIEW_WINDOW_MS) * VIEW_WINDOW_MS);
  const by = (user: 'admin' | 'ops') =>
    user === 'admin'
      ? {
          actorType: 'ProductUser',
          actorId: admin.id,
          actorName: nameOf(admin.id, 'admin@acme.test'),
          actorIsOps: false,
          ip: '203.0.113.24',
          userAgent: 'Chrome on Windows',
        }
      : {
          actorType: 'ProductUser',
          actorId: ops.id,
          actorName: nameOf(ops.id, 'ops@kestrel.test'),
          actorIsOps: true,
          ip: '198.51.100.7',
          userAgent: 'Firefox on macOS',
        };
  const rows: (typeof recordViews.$inferInsert)[] = [];
  results.forEach((r, i) => {
    const kind = CRIMINAL_RECORD_CODES.includes(r.code) ? 'criminal_record' : 'driving_record';
    const last = at(26 + i * 5);
    const first = new Date(Math.max(windowOf(last).getTime(), last.getTime() - 3 * HOUR));
    const item = { customerId, caseId: r.caseId, itemKind: kind, itemId: r.id, itemLabel: r.name };
    rows.push({
      ...item,
      ...by('admin'),
      how: 'page',
      windowStart: windowOf(last),
      firstSeenAt: first,
      lastSeenAt: last,
      count: 1 + (i % 4),
    });
    if (i % 3 === 0) {
      const seen = at(50 + i * 7);
      rows.push({
        ...item,
        ...by('ops'),
        how: 'page',
        windowStart: windowOf(seen),
        firstSeenAt: seen,
        lastSeenAt: seen,
        count: 1,
      });
    }
  });
  documents.forEach((d, i) => {
    const seen = at(30 + i * 11);
    rows.push({
      customerId,
      caseId: d.caseId,
      itemKind: 'document',
      itemId: d.id,
      itemLabel: d.type,
      ...by('admin'),
      how: i % 2 === 0 ? 'download' : 'page',
      windowStart: windowOf(seen),
      firstSeenAt: seen,
      lastSeenAt: seen,
      count: 1,
    });
  });
  if (rows.length > 0) await tx.insert(recordViews).values(rows).onConflictDoNothing();
}
