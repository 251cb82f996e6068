import { OPS_AGE_BUCKETS, type OpsDashboardOut, opsTargetHours, weekStarts } from '@kestrel/domain';
import { and, count, gte, inArray, isNull, lt, min, sql } from 'drizzle-orm';
import type { Tx } from '../../db/connection.js';
import { queueJobs } from '../../platform/jobs.js';
import { openCase, opsTurn } from '../activities/activities.routes.js';
import { caseActivities } from '../activities/activities.table.js';
import { pastTargetSql } from '../activities/activity-claims.js';
import { activityTypes } from '../bootstrap/bootstrap.table.js';
import { cases } from '../cases/cases.table.js';
import { countOpenEscalations } from '../escalation/escalation.service.js';
import { imports } from '../imports/imports.table.js';
import { refundUnansweredBefore } from '../payments/ops-payments.js';
import { paymentIntents } from '../payments/payments.table.js';
import { paymentRefunds } from '../payments/product-payments.table.js';

const DAY_MS = 86_400_000;
const WEEKS = 12;

/**
 * Operations' morning view (issue 29): what waits for them by kind and by age (over the
 * outstanding list's own conditions, through its (state, updated_at) index), the activities
 * completed per week (completed_at's index), provider errors, dead jobs, open escalations of overdue checks, top-up payments and
 * unanswered refunds needing attention, and the imports running.
 */
export async function opsDashboard(
  tx: Tx,
  now: Date,
  jobNames: readonly string[],
): Promise<OpsDashboardOut> {
  const waiting = and(opsTurn(), ...openCase());
  const caseJoin = and(
    sql`${cases.customerId} = ${caseActivities.customerId}`,
    sql`${cases.id} = ${caseActivities.caseId}`,
  );
  const typeJoin = sql`${activityTypes.id} = ${caseActivities.activityTypeId}`;
  const ageCounts = OPS_AGE_BUCKETS.map((b) =>
    sql<number>`count(*) filter (where ${caseActivities.updatedAt} <= ${new Date(
      now.getTime() - b.minDays * DAY_MS,
    ).toISOString()}::timestamptz${
      b.maxDays === null
        ? sql``
        : sql` and ${caseActivities.updatedAt} > ${new Date(
            now.getTime() - b.maxDays * DAY_MS,
          ).toISOString()}::timestamptz`
    })`.mapWith(Number),
  );
  const kinds = await tx
    .select({
      code: activityTypes.code,
      name: activityTypes.name,
      count: count(),
      past: sql<number>`count(*) filter (where ${pastTargetSql(now)})`.mapWith(Number),
      unassigned:
        sql<number>`count(*) filter (where ${isNull(caseActivities.claimedById)})`.mapWith(Number),
      oldest: min(caseActivities.updatedAt),
      ...Object.fromEntries(ageCounts.map((c, i) => [`age${i}`, c])),
    })
    .from(caseActivities)
    .innerJoin(activityTypes, typeJoin)
    .innerJoin(cases, caseJoin)
    .where(waiting)
    .groupBy(activityTypes.code, activityTypes.name);

  const weeks = weekStarts(now, WEEKS);
  const first = weeks[0] ?? now;
  const completed = await tx
    .select({
      week: sql<string>`to_char(date_trunc('week', ${caseActivities.completedAt} at time zone 'UTC'), 'YYYY-MM-DD')`,
      n: count(),
    })
    .from(caseActivities)
    .where(
      and(gte(caseActivities.completedAt, first), inArray(caseActivities.state, ['ca-complete'])),
    )
    .groupBy(sql`1`);
  const byWeek = new Map(completed.map((w) => [w.week, Number(w.n)]));

  const [errors] = await tx
    .select({ n: count() })
    .from(caseActivities)
    .innerJoin(cases, caseJoin)
    .where(and(inArray(caseActivities.state, ['ca-error-initiating']), ...openCase()));
  const [dead] =
    jobNames.length === 0
      ? [{ n: 0 }]
      : await tx
          .select({ n: count() })
          .from(queueJobs)
          .where(and(inArray(queueJobs.state, ['failed']), inArray(queueJobs.name, [...jobNames])));
  const dayAgo = new Date(now.getTime() - DAY_MS).toISOString();
  const [pay] = await tx
    .select({
      declined: sql<number>`count(*) filter (where ${paymentIntents.outcome} = 'declined')`.mapWith(
        Number,
      ),
      awaiting: sql<number>`count(*) filter (where ${paymentIntents.outcome} = 'awaiting'
        and ${paymentIntents.createdAt} < ${dayAgo}::timestamptz)`.mapWith(Number),
    })
    .from(paymentIntents)
    .where(inArray(paymentIntents.outcome, ['declined', 'awaiting']));

  // refunds whose answer never came: still pending past the threshold (the retries gave up)
  const [unanswered] = await tx
    .select({ n: count() })
    .from(paymentRefunds)
    .where(
      and(
        inArray(paymentRefunds.status, ['pending']),
        lt(paymentRefunds.createdAt, refundUnansweredBefore(now)),
      ),
    );

  // the imports of every customer running now (a small table: uploads, not their rows)
  const [running] = await tx
    .select({ n: count() })
    .from(imports)
    .where(inArray(imports.state, ['running']));

  // checks past their expected date escalated to operations, not yet resolved (issue 33)
  const openEscalations = await countOpenEscalations(tx);

  const ageOf = (row: Record<string, unknown>, i: number) => Number(row[`age${i}`] ?? 0);
  const byKind = kinds
    .map((k) => ({
      activity_type: k.code,
      activity_type_name: k.name,
      target_hours: opsTargetHours(k.code),
      count: Number(k.count),
      past_target: k.past,
      oldest_since: (k.oldest ?? now).toISOString(),
    }))
    .sort(
      (a, b) =>
        b.past_target - a.past_target ||
        a.oldest_since.localeCompare(b.oldest_since) ||
        a.activity_type.localeCompare(b.activity_type),
    );
  const oldest = byKind.map((k) => k.oldest_since).sort()[0] ?? null;
  return {
    waiting: {
      total: byKind.reduce((s, k) => s + k.count, 0),
      past_target: byKind.reduce((s, k) => s + k.past_target, 0),
      unassigned: kinds.reduce((s, k) => s + k.unassigned, 0),
      oldest_since: oldest,
    },
    by_kind: byKind,
    by_age: OPS_AGE_BUCKETS.map((b, i) => ({
      bucket: b.key,
      label: b.label,
      min_days: b.minDays,
      max_days: b.maxDays,
      count: kinds.reduce((s, k) => s + ageOf(k, i), 0),
    })),
    completed_by_week: weeks.map((w) => {
      const key = w.toISOString().slice(0, 10);
      return { week_start: key, count: byWeek.get(key) ?? 0 };
    }),
    provider_errors: Number(errors?.n ?? 0),
    dead_jobs: Number(dead?.n ?? 0),
    open_escalations: openEscalations,
    payments: {
      declined: pay?.declined ?? 0,
      awaiting: pay?.awaiting ?? 0,
      refunds_unanswered: Number(unanswered?.n ?? 0),
    },
    imports_running: Number(running?.n ?? 0),
  };
}
