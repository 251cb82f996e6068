import { and, eq, inArray, notInArray } from 'drizzle-orm';
import type { Tx } from '../../db/connection.js';
import { ValidationError } from '../../platform/errors.js';
import { segmentScope } from './segments.service.js';
import { segments, segmentUsers } from './segments.table.js';

/**
 * A user limited to segments gives another (or themself) segments within their own only, and
 * at least one: no segment means the whole organisation, more than they see themselves.
 */
export const LIMITED_USER_SEGMENTS =
  'Choose one or more of your own segments: you are limited to them, so the users you add or change are too.';

/**
 * The segments of each of `userIds` (customer `customerId`), ids ascending; a user of no
 * segment maps to []. For the users' list and detail (modules/users).
 */
export async function segmentsOfUsers(
  tx: Tx,
  customerId: number,
  userIds: readonly number[],
): Promise<Map<number, number[]>> {
  const out = new Map<number, number[]>(userIds.map((id) => [id, []]));
  if (userIds.length === 0) return out;
  const rows = await tx
    .select({ userId: segmentUsers.userId, segmentId: segmentUsers.segmentId })
    .from(segmentUsers)
    .where(and(eq(segmentUsers.customerId, customerId), inArray(segmentUsers.userId, [...userIds])))
    .orderBy(segmentUsers.segmentId);
  for (const r of rows) out.get(r.userId)?.push(r.segmentId);
  return out;
}

/**
 * Refuses (400 on `field`) any of `segmentIds` that is not a segment of the customer; returns
 * the ids once each.
 */
export async function requireSegments(
  tx: Tx,
  customerId: number,
  segmentIds: readonly number[],
  field = 'segments',
): Promise<number[]> {
  const wanted = [...new Set(segmentIds)];
  if (wanted.length === 0) return wanted;
  const found = await tx
    .select({ id: segments.id })
    .from(segments)
    .where(and(eq(segments.customerId, customerId), inArray(segments.id, wanted)));
  const known = new Set(found.map((r) => r.id));
  const missing = wanted.find((id) => !known.has(id));
  if (missing !== undefined) throw ValidationError.doesNotExist(field, missing);
  return wanted;
}

/**
 * Makes `segmentIds` the segments of user `userId` (customer `customerId`): rows added and
 * removed, nothing else touched. Each id must be one of the customer's segments (else 400 on
 * `segments`, nothing changed). The caller's transaction and audit (the user's change) cover it.
 * An empty list leaves the user unlimited (every case of the customer). An acting user limited
 * to segments may give only a non-empty part of their own (else 400 on `segments`): read before
 * any change, as their own segments may be the ones changed.
 */
export async function setUserSegments(
  tx: Tx,
  customerId: number,
  userId: number,
  segmentIds: readonly number[],
): Promise<void> {
  const wanted = await requireSegments(tx, customerId, segmentIds);
  const scope = await segmentScope(tx);
  if (scope !== null && (wanted.length === 0 || wanted.some((id) => !scope.includes(id)))) {
    throw ValidationError.of('segments', LIMITED_USER_SEGMENTS);
  }
  const mine = and(eq(segmentUsers.customerId, customerId), eq(segmentUsers.userId, userId));
  await tx
    .delete(segmentUsers)
    .where(wanted.length === 0 ? mine : and(mine, notInArray(segmentUsers.segmentId, wanted)));
  if (wanted.length === 0) return;
  await tx
    .insert(segmentUsers)
    .values(wanted.map((segmentId) => ({ customerId, segmentId, userId })))
    .onConflictDoNothing();
}
