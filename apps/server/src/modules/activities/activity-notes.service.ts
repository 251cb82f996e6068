import type { ActivityNoteOut } from '@kestrel/domain';
import { and, desc, eq, sql } from 'drizzle-orm';
import type { Tx } from '../../db/connection.js';
import { recordAudit } from '../../platform/audit.js';
import type { Actor } from '../../platform/context.js';
import { NotFoundError, PermissionDeniedError } from '../../platform/errors.js';
import { productUsers } from '../users/users.table.js';
import { caseActivities, caseActivityNotes } from './activities.table.js';
import { ACTIVITY_CT } from './activity-state.js';

/** POST .../notes/ body: the activity's notes, at most 400 characters ('Max length 400'). */
export { activityNotesCreate as activityNotesInput } from '@kestrel/domain';

/** Notes are read and written only by operations staff (point 6: an operations session). */
export function assertNotesAccess(actor: Actor): void {
  if (!actor.isOps) {
    throw new PermissionDeniedError(undefined, 'activity notes are for operations staff only');
  }
}

/** One entry of an activity's notes history (point 3: actor's names, timestamp, description). */
export type NoteHistoryEntry = ActivityNoteOut;

function presentEntry(n: typeof caseActivityNotes.$inferSelect): NoteHistoryEntry {
  return {
    id: n.id,
    actor_first_name: n.authorFirstName,
    actor_last_name: n.authorLastName,
    timestamp: n.createdAt.toISOString(),
    description: n.description,
  };
}

/**
 * Saves an activity's notes and appends them to its history, audited, in the caller's
 * transaction. Runs in an ops context (every customer) or an ops session (one customer).
 */
export async function saveActivityNotes(
  tx: Tx,
  actor: Actor,
  id: number,
  notes: string,
  now: Date,
): Promise<NoteHistoryEntry> {
  assertNotesAccess(actor);
  const [a] = await tx
    .select({
      customerId: caseActivities.customerId,
      caseId: caseActivities.caseId,
      notes: caseActivities.notes,
    })
    .from(caseActivities)
    .where(eq(caseActivities.id, id))
    .for('update');
  if (!a) throw new NotFoundError();
  const [author] =
    actor.id === null || actor.type !== 'ProductUser'
      ? []
      : await tx
          .select({ first: productUsers.firstName, last: productUsers.lastName })
          .from(productUsers)
          .where(eq(productUsers.id, actor.id));
  await tx
    .update(caseActivities)
    .set({ notes, updatedAt: now })
    .where(and(eq(caseActivities.customerId, a.customerId), eq(caseActivities.id, id)));
  const [entry] = await tx
    .insert(caseActivityNotes)
    .values({
      customerId: a.customerId,
      caseId: a.caseId,
      caseActivityId: id,
      authorId: actor.id,
      // An ops session's tenant context cannot see ops staff rows: fall back to the session's name.
      authorFirstName: author?.first ?? actor.name.split(' ')[0] ?? '',
      authorLastName: author?.last ?? actor.name.split(' ').slice(1).join(' '),
      description: notes,
      createdAt: now,
    })
    .returning();
  if (!entry) throw new NotFoundError();
  await recordAudit(tx, actor, {
    verb: 'updated',
    contentType: ACTIVITY_CT,
    objectId: id,
    objectRepr: `Case #${a.caseId} activity ${id}`,
    changes: { notes: [a.notes, notes] },
    customerId: a.customerId,
  });
  return presentEntry(entry);
}

/** The notes history of one activity, newest first. 404 for an activity the context cannot see. */
export async function activityNotesHistory(
  tx: Tx,
  actor: Actor,
  id: number,
  limit: number,
  offset: number,
): Promise<{ count: number; results: NoteHistoryEntry[] }> {
  assertNotesAccess(actor);
  const [a] = await tx
    .select({ customerId: caseActivities.customerId })
    .from(caseActivities)
    .where(eq(caseActivities.id, id));
  if (!a) throw new NotFoundError();
  const where = and(
    eq(caseActivityNotes.customerId, a.customerId),
    eq(caseActivityNotes.caseActivityId, id),
  );
  const rows = await tx
    .select()
    .from(caseActivityNotes)
    .where(where)
    .orderBy(desc(caseActivityNotes.createdAt), desc(caseActivityNotes.id))
    .limit(limit)
    .offset(offset);
  const [total] = await tx
    .select({ n: sql<number>`count(*)`.mapWith(Number) })
    .from(caseActivityNotes)
    .where(where);
  return { count: total?.n ?? 0, results: rows.map(presentEntry) };
}
