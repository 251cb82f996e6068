import {
  type ActivityProgressIn,
  type AdultFirstRequestOut,
  type AdultFirstResultData,
  type AdultFirstStage,
  adultFirstPendingData,
  adultFirstRequestedSchema,
  ENGINE_ACTIVITY_MESSAGES,
  isAdultFirstOffered,
  isEngineRunKind,
  nextAdultFirstStage,
  type ProcessingDataPatch,
  readResultData,
  type ServicedStageOut,
  type SubjectActivityResultOut,
  subjectResultData,
} from '@kestrel/domain';
import { and, asc, eq, isNull, sql } from 'drizzle-orm';
import type { Tx } from '../../db/connection.js';
import { recordAudit } from '../../platform/audit.js';
import type { Actor } from '../../platform/context.js';
import { NotFoundError, PermissionDeniedError, ValidationError } from '../../platform/errors.js';
import { activityTypes } from '../bootstrap/bootstrap.table.js';
import { followActivities } from '../cases/cases.service.js';
import { cases } from '../cases/cases.table.js';
import { keepsEngineData, subjectResultView } from '../checks/hooks.js';
import { customerActivityTypes } from '../customers/customers.table.js';
import {
  type ActivityLock,
  lockActivity as lockActivityRow,
  writeActivity,
} from './activities.service.js';
import { caseActivities } from './activities.table.js';
import { ACTIVITY_CT, initialActivityState } from './activity-state.js';
import { refuseIfRedacted } from './redacted-guard.js';

export const ADULT_FIRST = 'adult-first';
export const NOT_OFFERED = 'Adult first cannot be requested for this activity.';
export const NOT_SERVICED = 'This activity has no stages for operations.';
export const STAGE_MOVED = (stage: string) => `The activity is no longer at the '${stage}' stage.`;

const todayIso = (now: Date) => now.toISOString().slice(0, 10);

/** One activity with its type code, locked after its case (404 when there is none). */
async function lockActivity(tx: Tx, id: number): Promise<ActivityLock> {
  const lock = await lockActivityRow(tx, id);
  if (!lock) throw new NotFoundError();
  return lock;
}

/** The activity type codes of a case's activities. */
async function caseActivityCodes(tx: Tx, caseId: number): Promise<string[]> {
  const rows = await tx
    .select({ code: activityTypes.code })
    .from(caseActivities)
    .innerJoin(activityTypes, eq(activityTypes.id, caseActivities.activityTypeId))
    .where(eq(caseActivities.caseId, caseId));
  return rows.map((r) => r.code);
}

/** The activity type codes the customer may order (enabled). */
async function customerActivityCodes(tx: Tx, customerId: number): Promise<string[]> {
  const rows = await tx
    .select({ code: activityTypes.code })
    .from(customerActivityTypes)
    .innerJoin(activityTypes, eq(activityTypes.id, customerActivityTypes.activityTypeId))
    .where(
      and(
        eq(customerActivityTypes.customerId, customerId),
        eq(customerActivityTypes.enabled, true),
      ),
    );
  return rows.map((r) => r.code);
}

/**
 * Requests an adult-first check from a DBS enhanced activity: only when all six conditions of
 * point 6 hold (the domain's rule, enforced here too). Creates the case's adult-first activity
 * at the pending stage, waiting for operations.
 */
export async function requestAdultFirst(
  tx: Tx,
  actor: Actor,
  id: number,
  now: Date,
): Promise<AdultFirstRequestOut> {
  const { row, code, caseRow } = await lockActivity(tx, id);
  if (caseRow.archivedAt) throw ValidationError.of('non_field_errors', 'The case is archived.');
  if (caseRow.state === 'complete' || caseRow.state === 'cancelled') {
    throw ValidationError.of('non_field_errors', NOT_OFFERED);
  }
  const offered = isAdultFirstOffered({
    activityCode: code,
    customerActivityCodes: await customerActivityCodes(tx, row.customerId),
    caseActivityCodes: await caseActivityCodes(tx, row.caseId),
    permissions: [...actor.permissions],
    config: row.config,
  });
  if (!offered) throw ValidationError.of('non_field_errors', NOT_OFFERED);
  const [type] = await tx
    .select({ id: activityTypes.id })
    .from(activityTypes)
    .where(eq(activityTypes.code, ADULT_FIRST));
  if (!type) throw ValidationError.of('non_field_errors', NOT_OFFERED);
  const [last] = await tx
    .select({ n: sql<number>`coalesce(max(${caseActivities.position}), 0)`.mapWith(Number) })
    .from(caseActivities)
    .where(eq(caseActivities.caseId, row.caseId));
  const resultData: AdultFirstResultData = { stage: 'pending', dbs_case: row.caseId };
  const [created] = await tx
    .insert(caseActivities)
    .values({
      customerId: row.customerId,
      caseId: row.caseId,
      activityTypeId: type.id,
      state: initialActivityState(ADULT_FIRST),
      position: (last?.n ?? 0) + 1,
      config: {
        adult_barred_list: row.config.adult_barred_list ?? null,
        workforce: row.config.workforce ?? null,
      },
      resultData,
      createdAt: now,
      updatedAt: now,
    })
    .returning();
  if (!created) throw new NotFoundError();
  await recordAudit(tx, actor, {
    customerId: row.customerId,
    verb: 'created',
    contentType: ACTIVITY_CT,
    objectId: created.id,
    objectRepr: `Case #${row.caseId} activity ${created.id}`,
    changes: { activity_type: ADULT_FIRST, requested_from: id, stage: 'pending' },
  });
  // a new open activity: the case follows (a case awaiting its decision is open again)
  await followActivities(tx, actor, caseRow, null, now);
  return {
    id: created.id,
    case: row.caseId,
    state: created.state,
    activity_type: ADULT_FIRST,
    result_data: resultData,
  };
}

/** The cases of the same subject (and customer) holding a DBS enhanced activity. */
async function dbsCaseOptions(tx: Tx, customerId: number, subjectId: number) {
  const rows = await tx
    .selectDistinct({ id: cases.id, createdAt: cases.createdAt })
    .from(cases)
    .innerJoin(
      caseActivities,
      and(eq(caseActivities.customerId, cases.customerId), eq(caseActivities.caseId, cases.id)),
    )
    .innerJoin(activityTypes, eq(activityTypes.id, caseActivities.activityTypeId))
    .where(
      and(
        eq(cases.customerId, customerId),
        eq(cases.subjectId, subjectId),
        eq(activityTypes.code, 'dbs-enhanced'),
      ),
    )
    .orderBy(asc(cases.id));
  return rows.map((r) => ({
    id: r.id,
    label: `Case #${r.id} (${r.createdAt.toISOString().slice(0, 10)})`,
  }));
}

function stageOf(data: AdultFirstResultData): AdultFirstStage {
  return data.stage ?? 'pending';
}

/** GET of the serviced stage: the stage of an ops-serviced (adult-first) activity. */
export async function servicedStage(tx: Tx, id: number): Promise<ServicedStageOut> {
  const [row] = await tx
    .select({ row: caseActivities, code: activityTypes.code, subjectId: cases.subjectId })
    .from(caseActivities)
    .innerJoin(activityTypes, eq(activityTypes.id, caseActivities.activityTypeId))
    .innerJoin(
      cases,
      and(eq(cases.customerId, caseActivities.customerId), eq(cases.id, caseActivities.caseId)),
    )
    .where(eq(caseActivities.id, id));
  if (!row) throw new NotFoundError();
  if (row.code !== ADULT_FIRST) throw ValidationError.of('non_field_errors', NOT_SERVICED);
  const data = readResultData(ADULT_FIRST, row.row.resultData);
  const stage = stageOf(data);
  return {
    activity: row.row.id,
    case: row.row.caseId,
    activity_type: row.code,
    stage,
    next_stage: nextAdultFirstStage(stage),
    state: row.row.state,
    result_data: data,
    dbs_case_options: await dbsCaseOptions(tx, row.row.customerId, row.subjectId),
  };
}

/** Field errors of a form's Zod check, under `data.<field>`. */
function dataErrors(issues: readonly { path: PropertyKey[]; message: string }[]) {
  const fields: Record<string, string[]> = {};
  for (const i of issues) {
    const key = `data.${i.path.map(String).join('.')}`;
    fields[key] = [...(fields[key] ?? []), i.message];
  }
  return new ValidationError(fields);
}

/**
 * POST progress: moves an adult-first activity one stage on. Pending needs the linked DBS case
 * (a case of the same subject with a DBS enhanced check) and the reference; the activity stays
 * with operations until the result (up to 72 hours later), which completes it.
 */
export async function progressActivity(
  tx: Tx,
  actor: Actor,
  id: number,
  input: ActivityProgressIn,
  now: Date,
): Promise<ServicedStageOut> {
  const lock = await lockActivity(tx, id);
  const { row, code, caseRow } = lock;
  if (code !== ADULT_FIRST) throw ValidationError.of('non_field_errors', NOT_SERVICED);
  await refuseIfRedacted(tx, row);
  const data = readResultData(ADULT_FIRST, row.resultData);
  const stage = stageOf(data);
  if (row.state === 'ca-complete' || row.state === 'ca-cancelled') {
    throw ValidationError.of('non_field_errors', 'This activity is closed.');
  }
  if (input.stage !== stage) throw ValidationError.of('stage', STAGE_MOVED(input.stage));
  let next: AdultFirstResultData;
  let state: string | undefined;
  if (stage === 'pending') {
    const parsed = adultFirstPendingData.safeParse(input.data);
    if (!parsed.success) throw dataErrors(parsed.error.issues);
    const options = await dbsCaseOptions(tx, row.customerId, caseRow.subjectId);
    if (!options.some((o) => o.id === parsed.data.dbs_case)) {
      throw ValidationError.doesNotExist('data.dbs_case', parsed.data.dbs_case);
    }
    next = {
      ...data,
      stage: 'requested',
      dbs_case: parsed.data.dbs_case,
      reference: parsed.data.reference,
      e_number: parsed.data.e_number ?? data.e_number ?? null,
      requested_date: todayIso(now),
    };
  } else if (stage === 'requested') {
    const parsed = adultFirstRequestedSchema.safeParse(input.data);
    if (!parsed.success) throw dataErrors(parsed.error.issues);
    next = {
      ...data,
      stage: 'result-received',
      result: parsed.data.result,
      result_date: todayIso(now),
    };
    state = 'ca-complete';
  } else {
    throw ValidationError.of('stage', 'The result has already been received.');
  }
  await writeActivity(tx, actor, lock, { state, result_data: next }, now);
  return servicedStage(tx, id);
}

/**
 * PATCH of an activity's processing data (operations only): the keys given are merged into it
 * under the activity's lock, so the engine's provider log is never overwritten.
 */
export async function patchProcessingData(
  tx: Tx,
  actor: Actor,
  id: number,
  patch: ProcessingDataPatch,
  now: Date,
): Promise<Record<string, unknown>> {
  if (!actor.isOps) throw new PermissionDeniedError(undefined, 'processing data is for operations');
  const lock = await lockActivity(tx, id);
  const { row, code } = lock;
  if (lock.caseRow.archivedAt) {
    throw ValidationError.of('non_field_errors', 'The case is archived.');
  }
  const merged = { ...row.processingData, ...patch };
  // a started check's data stays the engine's (its provider log in shape)
  if (isEngineRunKind(code) && !keepsEngineData(row.processingData, merged)) {
    throw ValidationError.of('processing_data', ENGINE_ACTIVITY_MESSAGES.processingData);
  }
  const { activity } = await writeActivity(tx, actor, lock, { processing_data: merged }, now);
  return activity.processingData;
}

/**
 * One activity's result as its subject may read it (RLS shows a subject only its own cases;
 * archived cases are gone for the subject).
 */
export async function subjectActivityResult(tx: Tx, id: number): Promise<SubjectActivityResultOut> {
  const [row] = await tx
    .select({
      id: caseActivities.id,
      caseId: caseActivities.caseId,
      state: caseActivities.state,
      resultData: caseActivities.resultData,
      code: activityTypes.code,
    })
    .from(caseActivities)
    .innerJoin(activityTypes, eq(activityTypes.id, caseActivities.activityTypeId))
    .innerJoin(
      cases,
      and(eq(cases.customerId, caseActivities.customerId), eq(cases.id, caseActivities.caseId)),
    )
    .where(and(eq(caseActivities.id, id), isNull(cases.archivedAt)));
  if (!row) throw new NotFoundError();
  return {
    id: row.id,
    case: row.caseId,
    activity_type: row.code,
    state: row.state,
    // the shared restrictions, then the kind's own subject view (staff-only fields left out)
    result_data: subjectResultView(row.code, subjectResultData(row.code, row.resultData)),
  };
}
