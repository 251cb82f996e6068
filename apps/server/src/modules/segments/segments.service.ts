import type { SegmentOut, SegmentProcessOut, SegmentUserOut } from '@kestrel/domain';
import { and, asc, count, eq, inArray, sql } from 'drizzle-orm';
import type { Tx } from '../../db/connection.js';
import { recordAudit } from '../../platform/audit.js';
import type { Actor } from '../../platform/context.js';
import { NotFoundError, ValidationError } from '../../platform/errors.js';
import { customers } from '../customers/customers.table.js';
import { processes } from '../processes/processes.table.js';
import { productUsers } from '../users/users.table.js';
import { segments, segmentUsers } from './segments.table.js';

export const SEGMENT_CT = 'segments.segment';

export type SegmentRow = typeof segments.$inferSelect;

/** The fields of a segment as stored (without its counts). */
export const presentSegment = (s: SegmentRow) => ({
  id: s.id,
  name: s.name,
  employer_name: s.employerName,
  line_one: s.lineOne,
  line_two: s.lineTwo,
  town: s.town,
  postcode: s.postcode,
  contact_name: s.contactName,
  contact_email: s.contactEmail,
  contact_phone: s.contactPhone,
  created_at: s.createdAt.toISOString(),
  updated_at: s.updatedAt.toISOString(),
});

/** The users and processes counts of each segment of `rows` (two queries for a page). */
export async function segmentCounts(
  tx: Tx,
  rows: readonly Pick<SegmentRow, 'id' | 'customerId'>[],
): Promise<{ user_count: number; process_count: number }[]> {
  const ids = rows.map((r) => r.id);
  if (ids.length === 0) return [];
  const customers = [...new Set(rows.map((r) => r.customerId))];
  const [users, procs] = await Promise.all([
    tx
      .select({ id: segmentUsers.segmentId, n: count() })
      .from(segmentUsers)
      .where(and(inArray(segmentUsers.customerId, customers), inArray(segmentUsers.segmentId, ids)))
      .groupBy(segmentUsers.segmentId),
    tx
      .select({ id: processes.segmentId, n: count() })
      .from(processes)
      .where(and(inArray(processes.customerId, customers), inArray(processes.segmentId, ids)))
      .groupBy(processes.segmentId),
  ]);
  const u = new Map(users.map((r) => [r.id, Number(r.n)]));
  const p = new Map(procs.map((r) => [r.id, Number(r.n)]));
  return rows.map((r) => ({ user_count: u.get(r.id) ?? 0, process_count: p.get(r.id) ?? 0 }));
}

/** A customer's segments with their counts, by name (the ops customer screen). */
export async function customerSegments(tx: Tx, customerId: number): Promise<SegmentOut[]> {
  const [customer] = await tx
    .select({ id: customers.id })
    .from(customers)
    .where(eq(customers.id, customerId));
  if (!customer) throw new NotFoundError();
  const rows = await tx
    .select()
    .from(segments)
    .where(eq(segments.customerId, customerId))
    .orderBy(asc(segments.name), asc(segments.id))
    .limit(500);
  const counts = await segmentCounts(tx, rows);
  return rows.map((r, i) => ({
    ...presentSegment(r),
    ...(counts[i] ?? { user_count: 0, process_count: 0 }),
  }));
}

/** The segment `id` of the tenant (RLS), or 404. */
export async function findSegment(tx: Tx, id: number, lock = false): Promise<SegmentRow> {
  const q = tx.select().from(segments).where(eq(segments.id, id)).limit(1);
  const [row] = lock ? await q.for('update') : await q;
  if (!row) throw new NotFoundError();
  return row;
}

/** Before a segment is deleted: its processes return to the whole organisation. */
export async function releaseProcesses(tx: Tx, segment: SegmentRow): Promise<void> {
  await tx
    .update(processes)
    .set({ segmentId: null })
    .where(and(eq(processes.customerId, segment.customerId), eq(processes.segmentId, segment.id)));
}

const presentUser = (u: typeof productUsers.$inferSelect): SegmentUserOut => ({
  id: u.id,
  first_name: u.firstName,
  last_name: u.lastName,
  email: u.email,
  is_active: u.isActive,
});

export async function segmentMembers(tx: Tx, segment: SegmentRow): Promise<SegmentUserOut[]> {
  const rows = await tx
    .select({ u: productUsers })
    .from(segmentUsers)
    .innerJoin(productUsers, eq(productUsers.id, segmentUsers.userId))
    .where(
      and(eq(segmentUsers.customerId, segment.customerId), eq(segmentUsers.segmentId, segment.id)),
    )
    .orderBy(asc(productUsers.lastName), asc(productUsers.firstName), asc(productUsers.id));
  return rows.map((r) => presentUser(r.u));
}

const presentProcess = (p: typeof processes.$inferSelect): SegmentProcessOut => ({
  id: p.id,
  name: p.name,
  is_active: p.isActive,
});

export async function segmentProcesses(tx: Tx, segment: SegmentRow): Promise<SegmentProcessOut[]> {
  const rows = await tx
    .select()
    .from(processes)
    .where(and(eq(processes.customerId, segment.customerId), eq(processes.segmentId, segment.id)))
    .orderBy(asc(processes.name), asc(processes.id));
  return rows.map(presentProcess);
}

const audit = (tx: Tx, actor: Actor, segment: SegmentRow, changes: Record<string, unknown>) =>
  recordAudit(tx, actor, {
    verb: 'updated',
    contentType: SEGMENT_CT,
    objectId: segment.id,
    objectRepr: segment.name,
    changes,
  });

/** Adds a user of the organisation to the segment (again: no change); 400 on `user` otherwise. */
export async function addMember(
  tx: Tx,
  actor: Actor,
  segment: SegmentRow,
  userId: number,
): Promise<SegmentUserOut> {
  const [user] = await tx
    .select()
    .from(productUsers)
    .where(and(eq(productUsers.id, userId), eq(productUsers.customerId, segment.customerId)));
  if (!user) throw ValidationError.doesNotExist('user', userId);
  const added = await tx
    .insert(segmentUsers)
    .values({ customerId: segment.customerId, segmentId: segment.id, userId })
    .onConflictDoNothing()
    .returning({ userId: segmentUsers.userId });
  if (added.length > 0) await audit(tx, actor, segment, { users: { added: [userId] } });
  return presentUser(user);
}

/** Removes a user from the segment; 404 when they are not in it. */
export async function removeMember(
  tx: Tx,
  actor: Actor,
  segment: SegmentRow,
  userId: number,
): Promise<void> {
  const gone = await tx
    .delete(segmentUsers)
    .where(
      and(
        eq(segmentUsers.customerId, segment.customerId),
        eq(segmentUsers.segmentId, segment.id),
        eq(segmentUsers.userId, userId),
      ),
    )
    .returning({ userId: segmentUsers.userId });
  if (gone.length === 0) throw new NotFoundError();
  await audit(tx, actor, segment, { users: { removed: [userId] } });
}

/**
 * Assigns a process of the customer to the segment (a process belongs to at most one: it leaves
 * its previous segment); 400 on `process` when there is no such process.
 */
export async function assignProcess(
  tx: Tx,
  actor: Actor,
  segment: SegmentRow,
  processId: number,
  now: Date,
): Promise<SegmentProcessOut> {
  const [before] = await tx
    .select({ segmentId: processes.segmentId })
    .from(processes)
    .where(and(eq(processes.customerId, segment.customerId), eq(processes.id, processId)))
    .for('update');
  if (!before) throw ValidationError.doesNotExist('process', processId);
  const [row] = await tx
    .update(processes)
    .set({ segmentId: segment.id, updatedAt: now })
    .where(and(eq(processes.customerId, segment.customerId), eq(processes.id, processId)))
    .returning();
  if (!row) throw ValidationError.doesNotExist('process', processId);
  if (before.segmentId !== segment.id) {
    await audit(tx, actor, segment, {
      processes: { added: [processId], ...(before.segmentId ? { from: before.segmentId } : {}) },
    });
  }
  return presentProcess(row);
}

/** Returns a process of the segment to the whole organisation; 404 when it is not the segment's. */
export async function unassignProcess(
  tx: Tx,
  actor: Actor,
  segment: SegmentRow,
  processId: number,
  now: Date,
): Promise<void> {
  const gone = await tx
    .update(processes)
    .set({ segmentId: null, updatedAt: now })
    .where(
      and(
        eq(processes.customerId, segment.customerId),
        eq(processes.id, processId),
        eq(processes.segmentId, segment.id),
      ),
    )
    .returning({ id: processes.id });
  if (gone.length === 0) throw new NotFoundError();
  await audit(tx, actor, segment, { processes: { removed: [processId] } });
}

/**
 * The segments the acting user is limited to (kestrel_segment_scope(), db/security.ts), or null
 * when they see every case of the customer. Kept counts (case_counts) are the whole customer's:
 * a limited user's totals are counted from the cases their policies let them read.
 */
export async function segmentScope(tx: Tx): Promise<number[] | null> {
  const rows = await tx.execute<{ scope: number[] | null }>(
    sql`select kestrel_segment_scope() as scope`,
  );
  const scope = rows[0]?.scope;
  return Array.isArray(scope) ? scope.map(Number) : null;
}
