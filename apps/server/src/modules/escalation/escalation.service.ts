import {
  type EscalationStatus,
  EXPECTED_DATE_STATES,
  type ExpectedCompletion,
  expectedCompletion,
  isOverdue,
  overdueFlagMessage,
} from '@kestrel/domain';
import { and, count, desc, eq, inArray, isNotNull, isNull, sql } from 'drizzle-orm';
import type { Tx } from '../../db/connection.js';
import { recordAudit } from '../../platform/audit.js';
import type { ServiceContext } from '../../platform/service-context.js';
import { caseActivities } from '../activities/activities.table.js';
import { activityTypes } from '../bootstrap/bootstrap.table.js';
import { cases } from '../cases/cases.table.js';
import { customers } from '../customers/customers.table.js';
import { FLAG_CT } from '../flags/flags.routes.js';
import { flags } from '../flags/flags.table.js';
import { subjects } from '../subjects/subjects.table.js';
import { emitWebhookEvent } from '../webhooks/webhook-events.js';
import { checkEscalations } from './check-escalations.table.js';

const day = (d: Date) => d.toISOString().slice(0, 10);
const OPEN = [...EXPECTED_DATE_STATES];

/** An activity row's expected completion (the domain rule over its kind, state and result). */
export function expectedOf(a: {
  code: string;
  state: string;
  createdAt: Date;
  resultData: Record<string, unknown>;
}): ExpectedCompletion | null {
  return expectedCompletion({
    code: a.code,
    state: a.state,
    startedOn: day(a.createdAt),
    result: a.resultData,
  });
}

/**
 * Escalates the tenant's overdue checks (its transaction, as the system): every open check past
 * its expected date gets its escalation once (per expected date: the unique key), a flag on its
 * case for the customer (the flag.raised webhook too), both audited. Escalations of checks no
 * longer open are resolved. Returns how many were escalated.
 */
export async function escalateOverdue(ctx: ServiceContext, customerId: number): Promise<number> {
  const { tx, actor } = ctx;
  const now = ctx.clock.now();
  const today = day(now);
  const open = await tx
    .select({
      id: caseActivities.id,
      caseId: caseActivities.caseId,
      state: caseActivities.state,
      createdAt: caseActivities.createdAt,
      resultData: caseActivities.resultData,
      code: activityTypes.code,
      name: activityTypes.name,
      subjectId: cases.subjectId,
    })
    .from(caseActivities)
    .innerJoin(activityTypes, eq(activityTypes.id, caseActivities.activityTypeId))
    .innerJoin(
      cases,
      and(eq(cases.customerId, caseActivities.customerId), eq(cases.id, caseActivities.caseId)),
    )
    .where(and(inArray(caseActivities.state, OPEN), isNull(cases.archivedAt)));
  let escalated = 0;
  for (const a of open) {
    const expected = expectedOf(a);
    if (!expected || !isOverdue(expected.date, today)) continue;
    const [row] = await tx
      .insert(checkEscalations)
      .values({
        customerId,
        caseId: a.caseId,
        caseActivityId: a.id,
        expectedOn: expected.date,
        escalatedAt: now,
      })
      .onConflictDoNothing()
      .returning({ id: checkEscalations.id });
    if (!row) continue;
    const message = overdueFlagMessage(a.name, expected.date);
    const [flag] = await tx
      .insert(flags)
      .values({
        customerId,
        caseId: a.caseId,
        subjectId: a.subjectId,
        kind: 'rule',
        message,
        createdByName: actor.name,
      })
      .returning({ id: flags.id });
    await tx
      .update(checkEscalations)
      .set({ flagId: flag?.id ?? null })
      .where(eq(checkEscalations.id, row.id));
    if (flag) {
      await emitWebhookEvent(
        tx,
        customerId,
        'flag.raised',
        { flag: { id: flag.id, kind: 'rule', case: a.caseId, subject: a.subjectId } },
        now,
      );
    }
    await recordAudit(tx, actor, {
      verb: 'created',
      contentType: FLAG_CT,
      objectId: flag?.id ?? null,
      objectRepr: `Flag on case ${a.caseId}`,
      changes: {
        message: [null, message],
        case: [null, a.caseId],
        escalation: { activity: a.id, expected_on: expected.date, basis: expected.basis },
      },
    });
    escalated += 1;
  }
  // escalations whose check has left the provider's or operations' hands are resolved
  await tx
    .update(checkEscalations)
    .set({ resolvedAt: now })
    .where(
      and(
        isNull(checkEscalations.resolvedAt),
        sql`not exists (select 1 from ${caseActivities} a where a.customer_id = ${checkEscalations.customerId}
          and a.id = ${checkEscalations.caseActivityId}
          and a.state in (${sql.join(
            OPEN.map((s) => sql`${s}`),
            sql`, `,
          )}))`,
      ),
    );
  return escalated;
}

const DAY_MS = 86_400_000;
const daysBetween = (from: string, to: string) =>
  Math.max(0, Math.round((Date.parse(to) - Date.parse(from)) / DAY_MS));

/** The filters of operations' list (GET /api/ops/escalations/). */
export interface EscalationFilters {
  status: EscalationStatus;
  customer?: number;
}

/**
 * Operations' list across customers: the open escalations by default (or the resolved, or both,
 * open first), of one customer when asked, newest escalation first; each with its case's subject
 * and the days it is (or was, when resolved) past its expected date.
 */
export async function listEscalations(
  tx: Tx,
  filters: EscalationFilters,
  today: string,
  limit: number,
  offset: number,
) {
  const where = and(
    filters.status === 'open'
      ? isNull(checkEscalations.resolvedAt)
      : filters.status === 'resolved'
        ? isNotNull(checkEscalations.resolvedAt)
        : undefined,
    filters.customer === undefined ? undefined : eq(checkEscalations.customerId, filters.customer),
  );
  const rows = await tx
    .select({
      e: checkEscalations,
      customerName: customers.name,
      check: activityTypes.name,
      state: caseActivities.state,
      subjectId: cases.subjectId,
      firstName: subjects.firstName,
      lastName: subjects.lastName,
      total: sql<number>`count(*) over ()`,
    })
    .from(checkEscalations)
    .innerJoin(customers, eq(customers.id, checkEscalations.customerId))
    .innerJoin(
      caseActivities,
      and(
        eq(caseActivities.customerId, checkEscalations.customerId),
        eq(caseActivities.id, checkEscalations.caseActivityId),
      ),
    )
    .innerJoin(activityTypes, eq(activityTypes.id, caseActivities.activityTypeId))
    .innerJoin(
      cases,
      and(eq(cases.customerId, checkEscalations.customerId), eq(cases.id, checkEscalations.caseId)),
    )
    .leftJoin(
      subjects,
      and(eq(subjects.customerId, cases.customerId), eq(subjects.id, cases.subjectId)),
    )
    .where(where)
    .orderBy(
      sql`${checkEscalations.resolvedAt} is not null`,
      desc(checkEscalations.escalatedAt),
      desc(checkEscalations.id),
    )
    .limit(limit)
    .offset(offset);
  return {
    count: Number(rows[0]?.total ?? 0),
    results: rows.map((r) => {
      const resolved = r.e.resolvedAt;
      return {
        id: r.e.id,
        customer_id: r.e.customerId,
        customer_name: r.customerName,
        case_id: r.e.caseId,
        subject_id: r.subjectId,
        subject_name: [r.firstName, r.lastName].filter(Boolean).join(' '),
        activity_id: r.e.caseActivityId,
        check: r.check,
        state: r.state,
        expected_on: r.e.expectedOn,
        days_overdue: daysBetween(r.e.expectedOn, resolved ? day(resolved) : today),
        escalated_at: r.e.escalatedAt.toISOString(),
        resolved_at: resolved ? resolved.toISOString() : null,
      };
    }),
  };
}

/** How many escalations are open across customers (the ops dashboard's figure). */
export async function countOpenEscalations(tx: Tx): Promise<number> {
  const [row] = await tx
    .select({ n: count() })
    .from(checkEscalations)
    .where(isNull(checkEscalations.resolvedAt));
  return Number(row?.n ?? 0);
}
