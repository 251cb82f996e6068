import {
  type ActivityClaimOut,
  type ActivityClaimResultOut,
  activityClaimIn,
  activityClaimResultOut,
  alreadyClaimedMessage,
  DEFAULT_OPS_TARGET_HOURS,
  isOpsAssigneeFilter,
  OPS_TARGET_HOURS,
} from '@kestrel/domain';
import { and, eq, isNull, or, type SQL, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { Tx } from '../../db/connection.js';
import { opsActorOf } from '../../platform/access.js';
import { recordAudit } from '../../platform/audit.js';
import type { Actor } from '../../platform/context.js';
import { ConflictError, NotFoundError, ValidationError } from '../../platform/errors.js';
import { queryBool, queryString } from '../../platform/query-params.js';
import { idParams, parseId } from '../../platform/resource-query.js';
import { runInOps } from '../../platform/service-context.js';
import { activityTypes } from '../bootstrap/bootstrap.table.js';
import { caseActivities } from './activities.table.js';

/*
 * Operations' work queue (issue 29): an ops user claims an outstanding activity (assigned to
 * them, visible to the team) and releases it; the queue's filters by assignee, age and target.
 */

interface ClaimColumns {
  claimedById: number | null;
  claimedByName: string;
  claimedAt: Date | null;
}

/** The claim of an activity's row, or null. */
export function claimOf(row: ClaimColumns): ActivityClaimOut | null {
  if (row.claimedById === null || row.claimedAt === null) return null;
  return {
    user_id: row.claimedById,
    name: row.claimedByName,
    claimed_at: row.claimedAt.toISOString(),
  };
}

const claimColumns = {
  customerId: caseActivities.customerId,
  claimedById: caseActivities.claimedById,
  claimedByName: caseActivities.claimedByName,
  claimedAt: caseActivities.claimedAt,
};

/** Each kind's target as SQL hours, over the activity type's code (the domain's table). */
export function targetHoursSql(): SQL<number> {
  const cases = Object.entries(OPS_TARGET_HOURS).map(
    ([code, hours]) => sql`when ${code} then ${sql.raw(String(Number(hours)))}`,
  );
  return sql<number>`(case ${activityTypes.code} ${sql.join(cases, sql` `)} else ${sql.raw(
    String(DEFAULT_OPS_TARGET_HOURS),
  )} end)`;
}

/** Waiting (since updated_at) longer than its kind's target at `now`. */
export function pastTargetSql(now: Date): SQL {
  return sql`${caseActivities.updatedAt} < ${now.toISOString()}::timestamptz - make_interval(hours => ${targetHoursSql()})`;
}

const DAY_MS = 86_400_000;

function dayCount(query: unknown, name: string, min: number): number | undefined {
  const raw = queryString(query, name);
  if (raw === undefined || raw === '') return undefined;
  const n = /^\d{1,4}$/.test(raw) ? Number(raw) : Number.NaN;
  if (!Number.isInteger(n) || n < min || n > 3650) {
    throw ValidationError.of(name, `Ensure this value is a whole number from ${min} to 3650.`);
  }
  return n;
}

/**
 * The work queue's filters: `assignee` (me, unassigned, anyone), `older_than_days`,
 * `newer_than_days` (waiting since updated_at) and `past_target=true`.
 */
export function queueConditions(query: unknown, actor: Actor, now: Date): SQL[] {
  const conds: SQL[] = [];
  const assignee = queryString(query, 'assignee');
  if (assignee !== undefined && assignee !== '') {
    if (!isOpsAssigneeFilter(assignee)) throw ValidationError.invalidChoice('assignee', assignee);
    if (assignee === 'me') conds.push(eq(caseActivities.claimedById, actor.id ?? 0));
    if (assignee === 'unassigned') conds.push(isNull(caseActivities.claimedById));
  }
  const older = dayCount(query, 'older_than_days', 0);
  if (older !== undefined) {
    conds.push(
      sql`${caseActivities.updatedAt} <= ${new Date(now.getTime() - older * DAY_MS).toISOString()}::timestamptz`,
    );
  }
  const newer = dayCount(query, 'newer_than_days', 1);
  if (newer !== undefined) {
    conds.push(
      sql`${caseActivities.updatedAt} > ${new Date(now.getTime() - newer * DAY_MS).toISOString()}::timestamptz`,
    );
  }
  const past = queryBool(query, 'past_target');
  if (past === true) conds.push(pastTargetSql(now));
  if (past === false) conds.push(sql`not (${pastTargetSql(now)})`);
  return conds;
}

/**
 * Claims an activity for the acting ops user in one conditional UPDATE: it takes an unclaimed
 * activity (or keeps the actor's own claim); held by someone else, 409 naming the holder. The
 * activity's updated_at (the time it has waited since) is left alone. Audited.
 */
export async function claimActivity(
  tx: Tx,
  actor: Actor,
  id: number,
  now: Date,
  reason = '',
): Promise<ActivityClaimResultOut> {
  const me = actor.id ?? 0;
  const [taken] = await tx
    .update(caseActivities)
    .set({
      claimedById: me,
      claimedByName: actor.name.slice(0, 300),
      claimedAt: sql`case when ${caseActivities.claimedById} = ${me} then ${caseActivities.claimedAt} else ${now.toISOString()}::timestamptz end`,
    })
    .where(
      and(
        eq(caseActivities.id, id),
        or(isNull(caseActivities.claimedById), eq(caseActivities.claimedById, me)),
      ),
    )
    .returning(claimColumns);
  if (!taken) {
    const [held] = await tx
      .select(claimColumns)
      .from(caseActivities)
      .where(eq(caseActivities.id, id));
    if (!held) throw new NotFoundError();
    throw new ConflictError(alreadyClaimedMessage(held.claimedByName || 'another ops user'));
  }
  await recordAudit(tx, actor, {
    verb: 'updated',
    contentType: 'cases.caseactivity',
    objectId: id,
    objectRepr: `Activity ${id}`,
    changes: { claimed_by: [null, actor.name], ...(reason ? { reason } : {}) },
    customerId: taken.customerId,
  });
  return { id, claim: claimOf(taken) };
}

/** Releases an activity's claim (its holder or any ops user); audited when there was one. */
export async function releaseActivity(
  tx: Tx,
  actor: Actor,
  id: number,
  reason = '',
): Promise<ActivityClaimResultOut> {
  const [before] = await tx
    .select(claimColumns)
    .from(caseActivities)
    .where(eq(caseActivities.id, id))
    .for('update');
  if (!before) throw new NotFoundError();
  if (before.claimedById === null) return { id, claim: null };
  await tx
    .update(caseActivities)
    .set({ claimedById: null, claimedByName: '', claimedAt: null })
    .where(and(eq(caseActivities.customerId, before.customerId), eq(caseActivities.id, id)));
  await recordAudit(tx, actor, {
    verb: 'updated',
    contentType: 'cases.caseactivity',
    objectId: id,
    objectRepr: `Activity ${id}`,
    changes: { claimed_by: [before.claimedByName, null], ...(reason ? { reason } : {}) },
    customerId: before.customerId,
  });
  return { id, claim: null };
}

/**
 * POST /api/ops/outstanding-activities/{id}/claim/ and .../release/ (operations staff only:
 * customer staff and subjects 403).
 */
export async function activityClaimRoutes(app: FastifyInstance) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const deps = app.deps;
  const config = {
    access: { audience: 'ops' as const, permissions: ['cases.change_caseactivity' as const] },
  };
  const schema = {
    tags: ['cases'],
    params: idParams,
    body: activityClaimIn,
    response: { 200: activityClaimResultOut },
  };
  r.post('/api/ops/outstanding-activities/:id/claim/', { schema, config }, async (request) => {
    const id = parseId(request.params.id);
    return runInOps(deps, opsActorOf(request), ({ tx, actor }) =>
      claimActivity(tx, actor, id, deps.clock.now(), request.body?.reason),
    );
  });
  r.post('/api/ops/outstanding-activities/:id/release/', { schema, config }, async (request) => {
    const id = parseId(request.params.id);
    return runInOps(deps, opsActorOf(request), ({ tx, actor }) =>
      releaseActivity(tx, actor, id, request.body?.reason),
    );
  });
}
