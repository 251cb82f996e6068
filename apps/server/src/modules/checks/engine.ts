import {
  type ActivityConfig,
  type ApplicationUpdate,
  type CaseActivityState,
  DBS_CHECK_CODES,
  type DbsResultData,
  type DbsUpdateServiceStatus,
  initialProcessingData,
  isCountersignedKind,
  type ProcessingData,
  type ProcessingEvent,
  priceListTopUp,
  processingDataSchema,
  providerConfigurationOf,
  withEvent,
} from '@kestrel/domain';
import { and, asc, eq, inArray, sql } from 'drizzle-orm';
import type { AppDeps } from '../../app-deps.js';
import type { Tx } from '../../db/connection.js';
import { recordAudit } from '../../platform/audit.js';
import type { Actor } from '../../platform/context.js';
import { runInTenant, type ServiceContext } from '../../platform/service-context.js';
import type {
  DisclosureApplication,
  IdentityVerification,
} from '../../providers/dbs-basic/provider.js';
import { ProviderError } from '../../providers/dbs-basic/provider.js';
import type { StatusCheckAnswer } from '../../providers/dbs-update-service/provider.js';
import { activityTypes } from '../bootstrap/bootstrap.table.js';
import {
  caseAddresses,
  caseBasicDetails,
  caseBirthDetails,
  caseDbsUpdateDetails,
} from '../case-data/case-data.table.js';
import { ACTIVITY_CT, changeActivity, lockCase } from '../cases/cases.service.js';
import { caseActivities } from '../cases/cases.table.js';
import { customers } from '../customers/customers.table.js';
import { subjects } from '../subjects/subjects.table.js';
import { type CheckEngine, checkEngine } from './providers.js';
import {
  applicantResult,
  type CheckKindDefinition,
  checkKindOf,
  mapApplicationUpdate,
  mapStatusCheck,
  topUpResult,
} from './registry.js';

/*
 * The check engine: starts the activities the subject submitted, calls providers only from jobs
 * (with the activity's idempotency key and a timeout), applies what providers answer or call
 * back, and lets the case state follow, each change in one audited transaction
 * (changeActivity). A failed start is 'ca-error-initiating', retried automatically with back-off,
 * then by operations.
 */

export type ActivityJob = { case_activity_id: number; customer_id: number };

/** The activity row with its type code, locked with its case (case first, as changeActivity). */
export interface LockedActivity {
  row: typeof caseActivities.$inferSelect;
  code: string;
  kind: CheckKindDefinition;
  processing: ProcessingData | null;
}

/** The engine's processing data of a row, or null when the engine has not started it. */
export function processingOf(data: unknown): ProcessingData | null {
  const parsed = processingDataSchema.safeParse(data);
  return parsed.success ? parsed.data : null;
}

/** Locks the activity `id` (and its case) when the engine runs its kind; null otherwise. */
export async function lockActivity(tx: Tx, id: number): Promise<LockedActivity | null> {
  const [found] = await tx
    .select({ caseId: caseActivities.caseId })
    .from(caseActivities)
    .where(eq(caseActivities.id, id))
    .limit(1);
  if (!found) return null;
  await lockCase(tx, found.caseId);
  const [a] = await tx
    .select({ row: caseActivities, code: activityTypes.code })
    .from(caseActivities)
    .innerJoin(activityTypes, eq(activityTypes.id, caseActivities.activityTypeId))
    .where(eq(caseActivities.id, id))
    .for('update', { of: caseActivities });
  const kind = a ? checkKindOf(a.code) : null;
  if (!a || !kind) return null;
  return { row: a.row, code: a.code, kind, processing: processingOf(a.row.processingData) };
}

const nowIso = (ctx: Pick<ServiceContext, 'clock'>) => ctx.clock.now().toISOString();

/**
 * Writes the activity's new processing data, audited by the event it appended (not the whole
 * log, which would double every callback's cost); then, when its state or result_data changes,
 * moves it through changeActivity (the domain's transitions, audited, the case following).
 */
export async function saveActivity(
  ctx: ServiceContext,
  a: LockedActivity,
  processing: ProcessingData,
  change: { state?: CaseActivityState; resultData?: Record<string, unknown> } = {},
) {
  const now = ctx.clock.now();
  const [updated] = await ctx.tx
    .update(caseActivities)
    .set({ processingData: processingDataSchema.parse(processing), updatedAt: now })
    .where(eq(caseActivities.id, a.row.id))
    .returning();
  const last = processing.events.at(-1);
  await recordAudit(ctx.tx, ctx.actor, {
    customerId: a.row.customerId,
    verb: 'updated',
    contentType: ACTIVITY_CT,
    objectId: a.row.id,
    objectRepr: `Case ${a.row.caseId} activity ${a.row.id}`,
    changes: {
      processing_data: {
        event: last ? { at: last.at, type: last.type, event_id: last.event_id ?? null } : null,
        reference: processing.reference,
        attempts: processing.attempts,
      },
    },
  });
  const state = change.state && change.state !== a.row.state ? change.state : undefined;
  const resultData =
    change.resultData && JSON.stringify(change.resultData) !== JSON.stringify(a.row.resultData)
      ? change.resultData
      : undefined;
  if (!state && !resultData) return { activity: updated ?? a.row };
  const moved = await changeActivity(
    ctx.tx,
    ctx.actor,
    a.row.id,
    { ...(state ? { state } : {}), ...(resultData ? { result_data: resultData } : {}) },
    now,
  );
  return { activity: moved.activity };
}

export const INITIATE_JOB = 'checks-initiate';
export const START_JOB = 'checks-start';
export const POLL_JOB = 'checks-poll';
/**
 * The job that makes an awaited top-up's payment intent (and so its payment link): a kind of
 * payments' (modules/payments/top-up-job.ts), enqueued here by name so the engine never imports
 * payments (which builds on the engine).
 */
export const TOP_UP_INTENT_JOB = 'payments-top-up-intent';

function topUpIntentJob(a: LockedActivity) {
  return {
    name: TOP_UP_INTENT_JOB,
    data: { case_activity_id: a.row.id, customer_id: a.row.customerId },
  };
}

function initiateJob(a: LockedActivity, startAfterSeconds?: number) {
  return {
    name: INITIATE_JOB,
    data: { case_activity_id: a.row.id, customer_id: a.row.customerId },
    ...(startAfterSeconds ? { startAfterSeconds } : {}),
  };
}

/** Activity states the engine starts from on submission. */
const STARTABLE: readonly string[] = ['ca-pending', 'ca-awaiting-subject', 'ca-in-progress'];

/**
 * Standard and enhanced applications (the e-bulk registered body) go to the DBS only once a
 * countersignatory has countersigned the case's DBS details (verified, then countersigned:
 * issue 17); a basic disclosure and an update-service status check need neither.
 */
export function needsCountersigning(kind: CheckKindDefinition): boolean {
  return isCountersignedKind(kind.code);
}

/** The case's identity verification and countersignature, as the application carries them. */
async function identityVerificationOf(
  tx: Tx,
  caseId: number,
): Promise<IdentityVerification | null> {
  const rows = await tx.execute<{
    idv_option: string;
    identity_route: number | null;
    verified_by: string | null;
    verified_at: Date | string | null;
    countersigned_by: string | null;
    countersigned_at: Date | string | null;
  }>(sql`
    select idv_option, identity_route, verified_by, verified_at, countersigned_by, countersigned_at
    from case_dbs_details where case_id = ${caseId} and state in ('verified', 'countersigned')
    limit 1`);
  const d = rows[0];
  if (!d?.verified_by || !d.verified_at) return null;
  const at = (v: Date | string | null) => (v === null ? null : new Date(v).toISOString());
  return {
    basis: d.idv_option === 'online' ? 'online' : 'documents',
    route: d.identity_route,
    verified_by: d.verified_by,
    verified_at: at(d.verified_at) ?? '',
    countersigned_by: d.countersigned_by,
    countersigned_at: at(d.countersigned_at),
  };
}

/** True when the case's DBS details are countersigned. */
export async function isCountersigned(tx: Tx, caseId: number): Promise<boolean> {
  const rows = await tx.execute<{ state: string | null }>(
    sql`select state from case_dbs_details where case_id = ${caseId} limit 1`,
  );
  return rows[0]?.state === 'countersigned';
}

/**
 * Sends a started activity on to its provider (in progress, its start a job), or, when its
 * application still waits for verification and countersigning, leaves it with the customer's
 * agent ('ca-awaiting-agent') until `resumeCountersigned` runs.
 */
export async function proceedOrAwaitCountersign(
  ctx: ServiceContext,
  a: LockedActivity,
  processing: ProcessingData,
  change: { resultData?: Record<string, unknown> } = {},
): Promise<void> {
  if (needsCountersigning(a.kind) && !(await isCountersigned(ctx.tx, a.row.caseId))) {
    await saveActivity(ctx, a, processing, { ...change, state: 'ca-awaiting-agent' });
    return;
  }
  await saveActivity(ctx, a, processing, { ...change, state: 'ca-in-progress' });
  await ctx.enqueue(initiateJob(a));
}

/**
 * The case's DBS details were countersigned (in that transaction): its started applications
 * waiting for it go to their provider.
 */
export async function resumeCountersigned(ctx: ServiceContext, caseId: number): Promise<number> {
  const rows = await ctx.tx
    .select({ id: caseActivities.id })
    .from(caseActivities)
    .where(and(eq(caseActivities.caseId, caseId), eq(caseActivities.state, 'ca-awaiting-agent')));
  let resumed = 0;
  for (const { id } of rows) {
    const a = await lockActivity(ctx.tx, id);
    if (!a?.processing || a.row.state !== 'ca-awaiting-agent') continue;
    if (!needsCountersigning(a.kind) || a.processing.top_up?.status === 'awaiting') continue;
    await proceedOrAwaitCountersign(ctx, a, a.processing);
    resumed += 1;
  }
  return resumed;
}

/**
 * Starts one submitted activity in the caller's transaction: a price-list top-up first waits for
 * payment ('Awaiting top-up payment'); a standard or enhanced application then waits for
 * countersigning; otherwise it is in progress and its start is a job.
 */
export async function startActivity(ctx: ServiceContext, id: number): Promise<void> {
  const a = await lockActivity(ctx.tx, id);
  if (!a || a.processing || !STARTABLE.includes(a.row.state)) return;
  let processing = initialProcessingData(a.kind.provider, `kestrel-ca-${a.row.id}`);
  // what operations configured before the start goes with the application
  const configured = providerConfigurationOf(a.row.processingData);
  if (configured) processing = { ...processing, provider_configuration: configured };
  const demanded = priceListTopUp(a.code, a.row.config);
  if (demanded) {
    const topUp = { ...demanded, status: 'awaiting' as const, payment_intent: null };
    processing = withEvent(
      { ...processing, top_up: topUp },
      { at: nowIso(ctx), type: 'top-up', body: { source: 'price-list', ...demanded } },
    );
    await saveActivity(ctx, a, processing, {
      state: 'ca-awaiting-subject',
      resultData: { ...a.row.resultData, top_up: topUpResult(topUp) },
    });
    await ctx.enqueue(topUpIntentJob(a));
    return;
  }
  await proceedOrAwaitCountersign(ctx, a, processing);
}

/** What a start needs from the case: the application (disclosure) or the status query. */
async function applicationOf(tx: Tx, a: LockedActivity, callbackBase: string) {
  const caseId = a.row.caseId;
  if (a.kind.family === 'update-service') {
    const [details] = await tx
      .select()
      .from(caseDbsUpdateDetails)
      .where(eq(caseDbsUpdateDetails.caseId, caseId));
    const [customer] = await tx
      .select({ name: customers.name })
      .from(customers)
      .where(eq(customers.id, a.row.customerId));
    if (!details?.certificateNumber || !details.dob || !details.surname) return null;
    return {
      family: 'update-service' as const,
      query: {
        certificate_number: details.certificateNumber,
        surname: details.surname,
        dob: details.dob,
        organisation_name: customer?.name ?? '',
        employee_forename: 'Kestrel',
        employee_surname: 'Checks',
      },
    };
  }
  const [basic] = await tx
    .select()
    .from(caseBasicDetails)
    .where(eq(caseBasicDetails.caseId, caseId));
  if (!basic) return null;
  const [birth] = await tx
    .select()
    .from(caseBirthDetails)
    .where(eq(caseBirthDetails.caseId, caseId));
  const [address] = await tx
    .select()
    .from(caseAddresses)
    .where(and(eq(caseAddresses.caseId, caseId), eq(caseAddresses.current, true)))
    .limit(1);
  const c = await lockCase(tx, caseId);
  const [subject] = await tx
    .select({ email: subjects.email })
    .from(subjects)
    .where(eq(subjects.id, c.subjectId));
  const config: ActivityConfig = a.row.config;
  const processing = a.processing;
  const application: DisclosureApplication = {
    idempotency_key: processing?.idempotency_key ?? `kestrel-ca-${a.row.id}`,
    level: a.kind.level,
    callback_url: `${callbackBase}/callbacks/checks/${a.kind.provider}/${a.row.id}/`,
    applicant: {
      title: basic.title,
      forename: basic.forenameDbs || basic.forename,
      middlename: basic.middlenameDbs || basic.middlename,
      surname: basic.surnameDbs || basic.surname,
      dob: basic.dob ?? '',
      gender: basic.gender,
      email: basic.emailDbs || subject?.email || '',
      phone_number: basic.phoneNumber,
      nin: basic.nin,
      nationality: basic.nationality,
      birth_town: birth ? birth.townDbs || birth.town : '',
      birth_country: birth ? birth.countryDbs || birth.country : '',
      current_address: address
        ? [address.lineOne, address.lineTwo, address.town, address.postcode]
            .filter(Boolean)
            .join(', ')
        : '',
    },
    workforce: config.workforce ?? null,
    barred_lists: a.kind.barredLists(config),
    purpose: config.purpose ?? null,
    position: config.position ?? null,
    top_up_payment: processing?.top_up?.status === 'paid' ? processing.top_up.payment_intent : null,
    identity_verification: await identityVerificationOf(tx, caseId),
    provider_configuration: processing?.provider_configuration ?? null,
  };
  return { family: 'disclosure' as const, application };
}

type Call =
  | { ok: true; answer: ApplicationUpdate | StatusCheckAnswer }
  | { ok: false; error: ProviderError };

async function callProvider(
  engine: CheckEngine,
  a: LockedActivity,
  request: NonNullable<Awaited<ReturnType<typeof applicationOf>>>,
): Promise<Call> {
  const signal = AbortSignal.timeout(engine.config.providerTimeoutMs);
  try {
    if (request.family === 'update-service') {
      return { ok: true, answer: await engine.updateService.statusCheck(request.query, signal) };
    }
    const provider = a.kind.provider === 'ebulk' ? engine.ebulk : engine.dbsBasic;
    return { ok: true, answer: await provider.submit(request.application, signal) };
  } catch (err) {
    return {
      ok: false,
      error:
        err instanceof ProviderError
          ? err
          : new ProviderError(err instanceof Error ? err.message : 'Provider call failed.', true),
    };
  }
}

/** Activity states in which a start (or its retry) may run. */
const INITIATING: readonly string[] = ['ca-in-progress', 'ca-error-initiating'];

const requestBody = (request: NonNullable<Awaited<ReturnType<typeof applicationOf>>>) =>
  request.family === 'update-service'
    ? { ...request.query }
    : { ...request.application, applicant: { surname: request.application.applicant.surname } };

/**
 * The start job: reads the activity, calls the provider outside any transaction, then applies
 * the answer (or the failure) in a second one, if the activity still waits for it.
 */
export async function initiateActivity(deps: AppDeps, job: ActivityJob): Promise<void> {
  const engine = checkEngine(deps);
  const actor = jobActorOf(job.customer_id);
  const prepared = await runInTenant(deps, actor, async (ctx) => {
    const a = await lockActivity(ctx.tx, job.case_activity_id);
    if (!a?.processing || !INITIATING.includes(a.row.state) || a.processing.reference) return null;
    if (a.processing.top_up?.status === 'awaiting') return null;
    const request = await applicationOf(ctx.tx, a, deps.config.publicUrl);
    if (!request) {
      await failStart(
        ctx,
        a,
        new ProviderError('The case data the check needs is missing.', false),
        {},
        engine,
      );
      return null;
    }
    return { a, request };
  });
  if (!prepared) return;
  const call = await callProvider(engine, prepared.a, prepared.request);
  await runInTenant(deps, actor, async (ctx) => {
    let a = await lockActivity(ctx.tx, job.case_activity_id);
    const started = a?.processing;
    if (!a || !started || !INITIATING.includes(a.row.state) || started.reference) return;
    const body = requestBody(prepared.request);
    if (!call.ok) return failStart(ctx, a, call.error, body, engine);
    // A retry that succeeded: in progress again first (an error moves to no outcome directly).
    if (a.row.state === 'ca-error-initiating') {
      const resumed = await saveActivity(ctx, a, started, { state: 'ca-in-progress' });
      a = { ...a, row: resumed.activity };
    }
    let processing = withEvent(started, { at: nowIso(ctx), type: 'request', body });
    if (a.kind.family === 'update-service' && prepared.request.family === 'update-service') {
      const answer = call.answer as StatusCheckAnswer;
      processing = withEvent(
        { ...processing, reference: prepared.request.query.certificate_number, last_error: null },
        { at: nowIso(ctx), type: 'answer', body: { ...answer } },
      );
      const mapped = mapStatusCheck(answer, prepared.request.query.certificate_number, today(ctx));
      await saveActivity(ctx, a, processing, {
        state: mapped.state,
        resultData: a.kind.resultSchema.parse(mapped.resultData),
      });
      await shareUpdateServiceStatus(ctx, a, {
        certificate_status: answer.status,
        checked_date: today(ctx),
      });
      return;
    }
    const update = call.answer as ApplicationUpdate;
    processing = withEvent(processing, { at: nowIso(ctx), type: 'answer', body: { ...update } });
    // the provider took the application: its applicant is the result's applicant details
    const applicant =
      prepared.request.family === 'disclosure'
        ? applicantResult(prepared.request.application.applicant)
        : undefined;
    await applyApplicationUpdate(ctx, a, processing, update, applicant ? { applicant } : {});
    if (update.status === 'in-progress') await ctx.enqueue(pollJob(a, engine.config.pollSeconds));
  });
}

const today = (ctx: Pick<ServiceContext, 'clock'>) => ctx.clock.now().toISOString().slice(0, 10);

/**
 * The update service status found by the case's update service check, on each of the case's
 * criminal-record checks (their panels' 'update service status'), audited. The case is locked
 * (lockActivity locked it): no other write of its activities runs meanwhile.
 */
async function shareUpdateServiceStatus(
  ctx: ServiceContext,
  a: LockedActivity,
  status: DbsUpdateServiceStatus,
): Promise<void> {
  const siblings = await ctx.tx
    .select({ id: caseActivities.id, resultData: caseActivities.resultData })
    .from(caseActivities)
    .innerJoin(activityTypes, eq(activityTypes.id, caseActivities.activityTypeId))
    .where(
      and(
        eq(caseActivities.caseId, a.row.caseId),
        inArray(activityTypes.code, [...DBS_CHECK_CODES]),
      ),
    )
    .orderBy(asc(caseActivities.id));
  for (const s of siblings) {
    await changeActivity(
      ctx.tx,
      ctx.actor,
      s.id,
      { result_data: { ...s.resultData, update_service: status } },
      ctx.clock.now(),
    );
  }
}

/** A start failed: error-initiating, and a retry with back-off while attempts remain. */
async function failStart(
  ctx: ServiceContext,
  a: LockedActivity,
  error: ProviderError,
  body: Record<string, unknown>,
  engine: CheckEngine,
): Promise<void> {
  if (!a.processing) return;
  const attempts = a.processing.attempts + 1;
  let processing: ProcessingData = { ...a.processing, attempts, last_error: error.message };
  if (Object.keys(body).length > 0) {
    processing = withEvent(processing, { at: nowIso(ctx), type: 'request', body });
  }
  processing = withEvent(processing, {
    at: nowIso(ctx),
    type: 'error',
    body: { message: error.message, status: error.status, retryable: error.retryable, attempts },
  });
  await saveActivity(ctx, a, processing, { state: 'ca-error-initiating' });
  if (error.retryable && attempts < engine.config.maxAttempts) {
    await ctx.enqueue(initiateJob(a, 30 * 2 ** (attempts - 1)));
  }
}

/**
 * Applies a provider's application update (answer, poll or callback) to a locked activity;
 * `submitted` is what the submission itself adds to the result (the applicant details, on the
 * provider's answer to the submission).
 */
export async function applyApplicationUpdate(
  ctx: ServiceContext,
  a: LockedActivity,
  processing: ProcessingData,
  update: ApplicationUpdate,
  submitted: Pick<DbsResultData, 'applicant'> = {},
): Promise<LockedActivity['row']> {
  let next: ProcessingData = { ...processing, stage: update.stage, last_error: null };
  let demanded = false;
  if (update.status === 'top-up-required' && update.top_up) {
    if (next.top_up?.status !== 'paid') {
      demanded = next.top_up?.status !== 'awaiting';
      next = {
        ...next,
        top_up: { ...update.top_up, status: 'awaiting', payment_intent: null },
      };
    }
  } else {
    next = { ...next, reference: update.reference };
  }
  const previous = a.kind.resultSchema.safeParse(a.row.resultData);
  const mapped = mapApplicationUpdate(
    update,
    { ...((previous.success ? previous.data : {}) as DbsResultData), ...submitted },
    next.top_up,
  );
  const { activity } = await saveActivity(ctx, a, next, {
    ...(mapped.state !== a.row.state ? { state: mapped.state } : {}),
    resultData: a.kind.resultSchema.parse(mapped.resultData),
  });
  if (demanded) await ctx.enqueue(topUpIntentJob(a));
  return activity;
}

export function pollJob(a: LockedActivity, startAfterSeconds: number) {
  return {
    name: POLL_JOB,
    data: { case_activity_id: a.row.id, customer_id: a.row.customerId },
    singletonKey: `poll-${a.row.id}`,
    startAfterSeconds,
  };
}

/** Asks the provider how an application in progress stands, and applies the answer. */
export async function pollActivity(deps: AppDeps, job: ActivityJob): Promise<void> {
  const engine = checkEngine(deps);
  const actor = jobActorOf(job.customer_id);
  const target = await runInTenant(deps, actor, async (ctx) => {
    const a = await lockActivity(ctx.tx, job.case_activity_id);
    if (a?.kind.family !== 'disclosure' || a.row.state !== 'ca-in-progress') return null;
    return a.processing?.reference ? { a, reference: a.processing.reference } : null;
  });
  if (!target) return;
  const provider = target.a.kind.provider === 'ebulk' ? engine.ebulk : engine.dbsBasic;
  let update: ApplicationUpdate | null = null;
  let failure: string | null = null;
  try {
    update = await provider.status(
      target.reference,
      AbortSignal.timeout(engine.config.providerTimeoutMs),
    );
  } catch (err) {
    failure = err instanceof Error ? err.message : 'Provider call failed.';
  }
  await runInTenant(deps, actor, async (ctx) => {
    const a = await lockActivity(ctx.tx, job.case_activity_id);
    if (!a?.processing || a.row.state !== 'ca-in-progress') return;
    if (!update) {
      const processing = withEvent(
        { ...a.processing, last_error: failure },
        { at: nowIso(ctx), type: 'error', body: { message: failure, during: 'poll' } },
      );
      await saveActivity(ctx, a, processing);
    } else {
      const processing = withEvent(a.processing, {
        at: nowIso(ctx),
        type: 'poll',
        body: { ...update },
      });
      await applyApplicationUpdate(ctx, a, processing, update);
      if (update.status !== 'in-progress') return;
    }
    await ctx.enqueue(pollJob(a, engine.config.pollSeconds));
  });
}

function jobActorOf(customerId: number): Actor {
  return {
    type: null,
    id: null,
    name: 'check engine',
    customerId,
    isOps: false,
    permissions: new Set(),
    ip: null,
    requestId: null,
  };
}

/** The activities of `caseId` among `ids` the engine runs (for activitiesSubmitted). */
export async function engineActivityIds(
  tx: Tx,
  caseId: number,
  ids: readonly number[],
): Promise<number[]> {
  if (ids.length === 0) return [];
  const rows = await tx
    .select({ id: caseActivities.id, code: activityTypes.code })
    .from(caseActivities)
    .innerJoin(activityTypes, eq(activityTypes.id, caseActivities.activityTypeId))
    .where(and(eq(caseActivities.caseId, caseId), inArray(caseActivities.id, [...ids])));
  return rows.filter((r) => checkKindOf(r.code) !== null).map((r) => r.id);
}

/** Appends an event to a locked activity's processing data without moving it. */
export async function recordEvent(ctx: ServiceContext, a: LockedActivity, event: ProcessingEvent) {
  if (!a.processing) return;
  await saveActivity(ctx, a, withEvent(a.processing, event));
}
