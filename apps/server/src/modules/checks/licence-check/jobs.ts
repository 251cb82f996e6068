import { ACTIVITY_KINDS, type ProcessingData, readResultData, withEvent } from '@kestrel/domain';
import { and, eq, lte, sql } from 'drizzle-orm';
import { z } from 'zod';
import type { AppDeps } from '../../../app-deps.js';
import { serviceJob } from '../../../jobs/service-job.js';
import { recordAudit } from '../../../platform/audit.js';
import type { JobKind } from '../../../platform/jobs.js';
import { runInTenant, type ServiceContext } from '../../../platform/service-context.js';
import type { DavisCheck } from '../../../providers/davis/provider.js';
import { ProviderError } from '../../../providers/errors.js';
import { caseActivities } from '../../activities/activities.table.js';
import { activityTypes } from '../../bootstrap/bootstrap.table.js';
import { cases } from '../../cases/cases.table.js';
import { FLAG_CT } from '../../flags/flags.routes.js';
import { flags } from '../../flags/flags.table.js';
import { emitWebhookEvent } from '../../webhooks/webhook-events.js';
import { jobActorOf, nowIso, saveActivity, today } from '../activity.js';
import { dailyCron } from '../driver-data/schedule.js';
import type { KindEngine, LockedActivity } from '../kind.js';
import { keepRedacted } from '../redacted.js';
import { applyCheck } from './apply.js';
import { mapCheck } from './check.js';
import { davisProvider } from './providers.js';

/*
 * The licence check's own jobs: the scheduled re-checks (each completed check whose next check
 * date has come is checked again; a change raises a flag on the case), and the email
 * confirmation operations asked for (davis-email.ts). Each calls the service outside any
 * transaction, between a read and an apply, as the engine's jobs do.
 */

const payload = z.object({
  case_activity_id: z.number().int().positive(),
  customer_id: z.number().int().positive(),
  /** The email confirmation's attempts so far (a failed one is tried again, five times). */
  attempt: z.number().int().nonnegative().optional(),
});
type ActivityJob = z.infer<typeof payload>;

export const RECHECKS_JOB = 'licence-check-rechecks';
export const RECHECK_JOB = 'licence-check-recheck';
export const CONFIRM_EMAIL_JOB = 'licence-check-confirm-email';

/** The flag a re-check that found a change raises on the case. */
export const RECHECK_FLAG_MESSAGE = 'Driving licence re-check found changes';

/** The engine's parts these jobs use (given by the engine: kind.ts KindEngine). */
function engineOf(engine: KindEngine, deps: AppDeps) {
  const davis = engine.providerOf(deps, davisProvider);
  return {
    lockActivity: engine.lockActivity,
    pollJob: engine.pollJob,
    davis: davis.client,
    pollSeconds: davis.pollSeconds,
    timeoutMs: davis.timeoutMs,
  };
}

/** The completed licence checks whose next check date has come get a re-check each. */
export const licenceCheckRechecksJob = serviceJob<Record<string, never>>({
  name: RECHECKS_JOB,
  payload: z.object({}).strict(),
  retry: { limit: 0, delaySeconds: 0, backoff: false },
  expireInSeconds: 300,
  cron: dailyCron(davisProvider),
  handle: async (_data, ctx) => {
    const rows = await ctx.tx
      .select({ id: caseActivities.id, customerId: caseActivities.customerId })
      .from(caseActivities)
      .innerJoin(activityTypes, eq(activityTypes.id, caseActivities.activityTypeId))
      .where(
        and(
          eq(activityTypes.code, 'licence-check'),
          eq(caseActivities.state, 'ca-complete'),
          lte(sql`${caseActivities.resultData}->>'next_check_date'`, today(ctx)),
        ),
      );
    for (const r of rows) {
      await ctx.enqueue({
        name: RECHECK_JOB,
        data: { case_activity_id: r.id, customer_id: r.customerId },
      });
    }
  },
});

/** Reads the locked activity's driver id, or null when it has none (never registered). */
function driverOf(a: LockedActivity | null): { a: LockedActivity; driverId: string } | null {
  const driverId = a?.processing?.reference;
  return a && driverId ? { a, driverId } : null;
}

async function callService<T>(timeoutMs: number, call: (signal: AbortSignal) => Promise<T>) {
  try {
    return { ok: true as const, answer: await call(AbortSignal.timeout(timeoutMs)) };
  } catch (err) {
    const message = err instanceof Error ? err.message : 'Provider call failed.';
    return {
      ok: false as const,
      message,
      retryable: !(err instanceof ProviderError) || err.retryable,
    };
  }
}

/** The failure of a call, on the activity's log (it is tried again by its next run). */
async function logFailure(ctx: ServiceContext, a: LockedActivity, during: string, message: string) {
  if (!a.processing) return;
  const processing = withEvent(
    { ...a.processing, last_error: message },
    { at: nowIso(ctx), type: 'error', body: { message, during } },
  );
  await saveActivity(ctx, a, processing);
}

/** Raises the re-check's flag on the activity's case, audited. */
async function raiseFlag(ctx: ServiceContext, a: LockedActivity, changes: readonly string[]) {
  const [c] = await ctx.tx
    .select({ subjectId: cases.subjectId })
    .from(cases)
    .where(eq(cases.id, a.row.caseId));
  const message = `${RECHECK_FLAG_MESSAGE}: ${changes.join('; ')}`.slice(0, 1000);
  const [flag] = await ctx.tx
    .insert(flags)
    .values({
      customerId: a.row.customerId,
      caseId: a.row.caseId,
      subjectId: c?.subjectId ?? null,
      kind: 'rule',
      message,
      createdByName: ctx.actor.name,
    })
    .returning({ id: flags.id });
  if (flag) {
    await emitWebhookEvent(
      ctx.tx,
      a.row.customerId,
      'flag.raised',
      { flag: { id: flag.id, kind: 'rule', case: a.row.caseId, subject: c?.subjectId ?? null } },
      ctx.clock.now(),
    );
  }
  await recordAudit(ctx.tx, ctx.actor, {
    customerId: a.row.customerId,
    verb: 'created',
    contentType: FLAG_CT,
    objectId: flag?.id ?? null,
    objectRepr: `Flag on case ${a.row.caseId}`,
    changes: { message: [null, message], case: [null, a.row.caseId] },
  });
}

/** Checks one completed licence check again; a change raises a flag on the case. */
export async function recheckLicence(
  engine: KindEngine,
  deps: AppDeps,
  job: ActivityJob,
): Promise<void> {
  const actor = jobActorOf(job.customer_id);
  const e = engineOf(engine, deps);
  const target = await runInTenant(deps, actor, async (ctx) => {
    const found = driverOf(await e.lockActivity(ctx.tx, job.case_activity_id));
    return found && found.a.row.state === 'ca-complete' ? found.driverId : null;
  });
  if (!target) return;
  const call = await callService(e.timeoutMs, (signal) => e.davis.recheck(target, signal));
  await runInTenant(deps, actor, async (ctx) => {
    const a = await e.lockActivity(ctx.tx, job.case_activity_id);
    if (!a?.processing || a.row.state !== 'ca-complete') return;
    if (!call.ok) return logFailure(ctx, a, 'recheck', call.message);
    const processing: ProcessingData = withEvent(a.processing, {
      at: nowIso(ctx),
      type: 'poll',
      body: { recheck: true, ...call.answer },
    });
    // about an activity whose result was redacted: not stored (redacted.ts)
    if (await keepRedacted(ctx, a, processing)) return;
    // a re-check still waiting for the DVLA: logged, asked again by the next run
    if (call.answer.status !== 'Checked') return void (await saveActivity(ctx, a, processing));
    const previous = readResultData('licence-check', a.row.resultData);
    const mapped = mapCheck(call.answer, previous, today(ctx), null);
    await saveActivity(ctx, a, processing, {
      resultData: ACTIVITY_KINDS['licence-check'].result.parse(mapped.resultData),
    });
    const changes = mapped.resultData.changes ?? [];
    if (changes.length > 0) await raiseFlag(ctx, a, changes);
  });
}

/** Sends the email operations confirmed to the service, and applies its answer. */
export async function confirmEmail(
  engine: KindEngine,
  deps: AppDeps,
  job: ActivityJob,
): Promise<void> {
  const actor = jobActorOf(job.customer_id);
  const e = engineOf(engine, deps);
  const target = await runInTenant(deps, actor, async (ctx) => {
    const found = driverOf(await e.lockActivity(ctx.tx, job.case_activity_id));
    const email = found
      ? readResultData('licence-check', found.a.row.resultData).confirmed_email
      : null;
    return found && email && found.a.row.state === 'ca-in-progress'
      ? { driverId: found.driverId, email }
      : null;
  });
  if (!target) return;
  const call = await callService(
    e.timeoutMs,
    (signal): Promise<DavisCheck> => e.davis.confirmEmail(target.driverId, target.email, signal),
  );
  await runInTenant(deps, actor, async (ctx) => {
    const a = await e.lockActivity(ctx.tx, job.case_activity_id);
    if (!a?.processing || a.row.state !== 'ca-in-progress') return;
    if (!call.ok) {
      await logFailure(ctx, a, 'email confirmation', call.message);
      const attempt = (job.attempt ?? 0) + 1;
      if (call.retryable && attempt < 5) {
        await ctx.enqueue({
          name: CONFIRM_EMAIL_JOB,
          data: { ...job, attempt },
          startAfterSeconds: 30 * 2 ** (attempt - 1),
        });
      }
      return;
    }
    const processing = withEvent(a.processing, {
      at: nowIso(ctx),
      type: 'answer',
      body: { ...call.answer },
    });
    const applied =
      (await keepRedacted(ctx, a, processing)) ??
      (await applyCheck(ctx, a, processing, call.answer));
    if (applied.tracking) await ctx.enqueue(e.pollJob(a, e.pollSeconds));
  });
}

/** The kind's jobs, given the engine's parts (kind.ts `jobs`). */
export function licenceCheckJobs(engine: KindEngine): readonly JobKind<unknown, AppDeps>[] {
  const recheck: JobKind<ActivityJob, AppDeps> = {
    name: RECHECK_JOB,
    payload,
    retry: { limit: 2, delaySeconds: 300, backoff: true },
    expireInSeconds: 120,
    handle: (data, deps) => recheckLicence(engine, deps, data),
  };
  const confirm: JobKind<ActivityJob, AppDeps> = {
    name: CONFIRM_EMAIL_JOB,
    payload,
    // a failed call is tried again by the job itself (logged on the activity meanwhile)
    retry: { limit: 2, delaySeconds: 60, backoff: true },
    expireInSeconds: 120,
    handle: (data, deps) => confirmEmail(engine, deps, data),
  };
  return [licenceCheckRechecksJob, recheck, confirm];
}
