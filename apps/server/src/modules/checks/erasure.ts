import { isActivityOpen } from '@kestrel/domain';
import { and, asc, eq, inArray } from 'drizzle-orm';
import type { ServiceContext } from '../../platform/service-context.js';
import { lockActivity, writeActivity } from '../activities/activities.service.js';
import { caseActivities } from '../activities/activities.table.js';
import { activityTypes } from '../bootstrap/bootstrap.table.js';
import { checkKindOf } from './registry.js';

/**
 * A subject's erasure (issue 34, modules/data-requests): the checks of its cases the engine still
 * runs (any state but complete or cancelled: waiting to start, with the provider, failed to
 * start) are cancelled, each audited with its case following (writeActivity), in the erasure's
 * transaction: no start or poll runs for them again (each looks for its state first), and a
 * callback that still comes is only recorded, not stored once the result is redacted
 * (redacted.ts). An archived case's checks are left (nothing moves there). The provider is not
 * told (none of the providers has a withdrawal call). Returns the ids cancelled.
 */
export async function cancelChecksOfCases(
  ctx: ServiceContext,
  customerId: number,
  caseIds: readonly number[],
): Promise<number[]> {
  if (caseIds.length === 0) return [];
  const rows = await ctx.tx
    .select({ id: caseActivities.id, state: caseActivities.state, code: activityTypes.code })
    .from(caseActivities)
    .innerJoin(activityTypes, eq(activityTypes.id, caseActivities.activityTypeId))
    .where(
      and(eq(caseActivities.customerId, customerId), inArray(caseActivities.caseId, [...caseIds])),
    )
    .orderBy(asc(caseActivities.caseId), asc(caseActivities.id));
  const cancelled: number[] = [];
  for (const r of rows) {
    if (checkKindOf(r.code) === null || !isActivityOpen(r.state)) continue;
    const lock = await lockActivity(ctx.tx, r.id);
    if (!lock || lock.caseRow.archivedAt || !isActivityOpen(lock.row.state)) continue;
    await writeActivity(ctx.tx, ctx.actor, lock, { state: 'ca-cancelled' }, ctx.clock.now());
    cancelled.push(r.id);
  }
  return cancelled;
}
