import { and, desc, eq, gte, inArray, isNotNull, lte, sql } from 'drizzle-orm';
import { z } from 'zod';
import type { AppDeps } from '../../app-deps.js';
import { jobActor } from '../../jobs/service-job.js';
import { recordAudit } from '../../platform/audit.js';
import { type JobKind, jobOf } from '../../platform/jobs.js';
import { runAsSystem, runInTenant, type ServiceContext } from '../../platform/service-context.js';
import { caseActivities } from '../activities/activities.table.js';
import { initialActivityState } from '../activities/activity-state.js';
import { activityTypes } from '../bootstrap/bootstrap.table.js';
import { caseDbsUpdateDetails } from '../case-data/case-data.table.js';
import { activitiesSubmitted } from '../checks/hooks.js';
import { customers } from '../customers/customers.table.js';
import { licenceUpdateChecks } from './licence-update-checks.table.js';
import { LICENCE_CT } from './lms.service.js';
import { licences } from './lms.table.js';
import { lmsApplications } from './lms-applications.table.js';

/** A licensed driver's certificate is checked on the update service every this many months. */
export const UPDATE_SERVICE_CYCLE_MONTHS = 6;
const UPDATE_CODE = 'dbs-update';

/** `iso` (YYYY-MM-DD) plus `months`, the day kept or the month's last (31 Aug + 6 → 28/29 Feb). */
export function plusMonths(iso: string, months: number): string {
  const [y = 0, m = 1, d = 1] = iso.split('-').map(Number);
  const last = new Date(Date.UTC(y, m - 1 + months + 1, 0)).getUTCDate();
  return new Date(Date.UTC(y, m - 1 + months, Math.min(d, last))).toISOString().slice(0, 10);
}

/** The last day of the month of `iso` (YYYY-MM-DD). */
function monthEnd(iso: string): string {
  const [y = 0, m = 1] = iso.split('-').map(Number);
  return new Date(Date.UTC(y, m, 0)).toISOString().slice(0, 10);
}

/**
 * The period of a licence's update service check due by `today`: the latest of its issue date
 * plus 6, 12, 18… months that has come, while the licence runs (not after its expiry); null
 * before the first. A run late by days (the server down on the due date) finds the same period
 * and makes its check up; a run after a whole period was missed checks the current one only
 * (one check brings the licence up to date: never two in a period, never one per missed period).
 */
export function updateServiceDueOn(
  issueDate: string,
  expiryDate: string,
  today: string,
): string | null {
  let due: string | null = null;
  for (let n = 1; ; n += 1) {
    const next = plusMonths(issueDate, n * UPDATE_SERVICE_CYCLE_MONTHS);
    if (next > today || next > expiryDate) return due;
    due = next;
  }
}

/**
 * This council's licences whose period has come (in its tenant, as the system; the demo seed's
 * owner too, hence the council named), however late the run: each active or
 * suspended, unexpired licence whose holder gave a DBS certificate on the update service (the
 * latest case of its applications holding one) is recorded for its period under its unique key
 * first (a second process, or a second run, finds it there and does nothing), then a dbs-update
 * check is added to that case and started through the check engine, audited on the licence. The
 * update service's answer is the engine's: new information flags the licence to the licensing
 * team (licence-flags.ts). Returns how many licences were sent for a check.
 */
export async function cycleCustomer(ctx: ServiceContext, customerId: number): Promise<number> {
  const { tx } = ctx;
  const now = ctx.clock.now();
  const today = now.toISOString().slice(0, 10);
  // issued by the end of the month six months back: a licence issued on 31 August is due on
  // 28 February, which `today` minus six months (28 August) would leave out on that day
  const latestIssue = monthEnd(plusMonths(today, -UPDATE_SERVICE_CYCLE_MONTHS));
  const held = await tx
    .select({
      id: licences.id,
      customerId: licences.customerId,
      number: licences.number,
      issueDate: licences.issueDate,
      expiryDate: licences.expiryDate,
    })
    .from(licences)
    .where(
      and(
        eq(licences.customerId, customerId),
        inArray(licences.status, ['active', 'suspended']),
        gte(licences.expiryDate, today),
        lte(licences.issueDate, latestIssue),
      ),
    );
  if (held.length === 0) return 0;
  const [type] = await tx
    .select({ id: activityTypes.id })
    .from(activityTypes)
    .where(eq(activityTypes.code, UPDATE_CODE));
  if (!type) return 0;
  let started = 0;
  for (const licence of held) {
    const dueOn = updateServiceDueOn(licence.issueDate, licence.expiryDate, today);
    if (dueOn === null) continue;
    // the case of its latest application where the holder gave a certificate
    const [source] = await tx
      .select({ caseId: caseDbsUpdateDetails.caseId })
      .from(lmsApplications)
      .innerJoin(
        caseDbsUpdateDetails,
        and(
          eq(caseDbsUpdateDetails.customerId, lmsApplications.customerId),
          eq(caseDbsUpdateDetails.caseId, lmsApplications.caseId),
        ),
      )
      .where(
        and(
          eq(lmsApplications.licenceId, licence.id),
          isNotNull(caseDbsUpdateDetails.certificateNumber),
        ),
      )
      .orderBy(desc(lmsApplications.id))
      .limit(1);
    if (!source) continue;
    const [period] = await tx
      .insert(licenceUpdateChecks)
      .values({
        customerId: licence.customerId,
        licenceId: licence.id,
        dueOn,
        caseId: source.caseId,
        createdAt: now,
      })
      .onConflictDoNothing()
      .returning({ id: licenceUpdateChecks.id });
    if (!period) continue;
    const [last] = await tx
      .select({ n: sql<number>`coalesce(max(${caseActivities.position}), 0)`.mapWith(Number) })
      .from(caseActivities)
      .where(eq(caseActivities.caseId, source.caseId));
    const [activity] = await tx
      .insert(caseActivities)
      .values({
        customerId: licence.customerId,
        caseId: source.caseId,
        activityTypeId: type.id,
        state: initialActivityState(UPDATE_CODE),
        position: (last?.n ?? 0) + 1,
        config: {},
        createdAt: now,
        updatedAt: now,
      })
      .returning({ id: caseActivities.id });
    if (!activity) continue;
    await tx
      .update(licenceUpdateChecks)
      .set({ caseActivityId: activity.id })
      .where(eq(licenceUpdateChecks.id, period.id));
    await recordAudit(tx, ctx.actor, {
      verb: 'requested',
      contentType: LICENCE_CT,
      objectId: licence.id,
      objectRepr: `${licence.number}: DBS update service check due ${dueOn}`.slice(0, 200),
      changes: {
        check: 'dbs-update',
        cycle: 'update_service',
        due_on: dueOn,
        case: source.caseId,
        case_activity: activity.id,
      },
    });
    await activitiesSubmitted(ctx, source.caseId, [activity.id]);
    started += 1;
  }
  return started;
}

/**
 * The update service cycles of every council (or `customerId` only), each in its own tenant
 * transaction as the system actor. Returns how many licences were sent for a check.
 */
export async function runUpdateServiceCycles(
  deps: Pick<AppDeps, 'db' | 'clock' | 'config'>,
  customerId?: number,
): Promise<{ checks: number }> {
  const ids = await runAsSystem(deps, ({ tx }) =>
    tx
      .select({ id: customers.id })
      .from(customers)
      .where(customerId === undefined ? sql`true` : eq(customers.id, customerId)),
  );
  let checks = 0;
  for (const { id } of ids) {
    checks += await runInTenant(deps, jobActor(id), (ctx) => cycleCustomer(ctx, id));
  }
  return { checks };
}

/**
 * The queue's schedule of runUpdateServiceCycles: every morning at 06:30 (UTC); and a run soon
 * after a server starts (updateServiceCatchUp), so a morning's run missed while the servers were
 * down is made up then, not a day later.
 */
export const updateServiceCyclesJob: JobKind<Record<string, never>, AppDeps> = {
  name: 'lms-update-service-cycles',
  payload: z.object({}).strict(),
  retry: { limit: 2, delaySeconds: 300, backoff: true },
  expireInSeconds: 3600,
  cron: () => '30 6 * * *',
  handle: async (_data, deps) => {
    await runUpdateServiceCycles(deps);
  },
};

/** How long after a server's start its catch-up run of the update service cycles waits. */
export const CATCH_UP_DELAY_SECONDS = 60;
/** Server processes starting within one such window (a deploy, a restart) share one catch-up. */
export const CATCH_UP_WINDOW_SECONDS = 3600;

/**
 * At a server's start: a run of the update service cycles a minute later. After an outage that
 * missed the 06:30 run, the licences whose period came meanwhile are checked then, not at the
 * next 06:30. Several processes starting together enqueue one run (one singleton key per window);
 * a run finding nothing due does nothing, and one licence's period is checked once whoever runs
 * it (licence_update_checks' unique key), so a start with nothing missed costs one empty run.
 */
export async function updateServiceCatchUp(
  deps: Pick<AppDeps, 'db' | 'clock' | 'config'>,
): Promise<void> {
  await runAsSystem(deps, (ctx) =>
    ctx.enqueue(
      jobOf(
        updateServiceCyclesJob,
        {},
        {
          singletonKey: 'catch-up',
          singletonSeconds: CATCH_UP_WINDOW_SECONDS,
          startAfterSeconds: CATCH_UP_DELAY_SECONDS,
        },
      ),
    ),
  );
}
