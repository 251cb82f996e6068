import {
  CASE_ACTIVITY_STATE_LABELS,
  type CaseActivityOut,
  isCaseActivityState,
  type SiblingActivityOut,
} from '@kestrel/domain';
import { and, asc, eq, inArray } from 'drizzle-orm';
import type { Tx } from '../../db/connection.js';
import { iso } from '../../platform/clock.js';
import type { Actor } from '../../platform/context.js';
import { activityTypes } from '../bootstrap/bootstrap.table.js';
import { caseActivities } from './activities.table.js';
import { claimOf } from './activity-claims.js';
import type { ActivityRow } from './activity-state.js';

/*
 * The activity's presenter (contract: caseActivityOut) and its reads: one activity from its row,
 * a case's activities, and the brief list of each case's activities.
 */

/** An activity of the same case, in brief. */
export type SiblingActivity = SiblingActivityOut;

/**
 * The activities of these cases in brief, by case id (one statement for a page). By customer and
 * case, so case_activities_case_idx (customer_id, case_id, position) serves it: by case id alone
 * it read the whole table (issue 29: ~100 ms of a 600,000-activity page across customers).
 */
export async function siblingActivities(
  tx: Tx,
  of: readonly { customerId: number; caseId: number }[],
): Promise<Map<number, SiblingActivity[]>> {
  const out = new Map<number, SiblingActivity[]>();
  if (of.length === 0) return out;
  const caseIds = of.map((c) => c.caseId);
  const rows = await tx
    .select({
      caseId: caseActivities.caseId,
      id: caseActivities.id,
      state: caseActivities.state,
      code: activityTypes.code,
      name: activityTypes.name,
    })
    .from(caseActivities)
    .innerJoin(activityTypes, eq(activityTypes.id, caseActivities.activityTypeId))
    .where(
      and(
        inArray(caseActivities.customerId, [...new Set(of.map((c) => c.customerId))]),
        inArray(caseActivities.caseId, [...new Set(caseIds)]),
      ),
    )
    .orderBy(asc(caseActivities.caseId), asc(caseActivities.position), asc(caseActivities.id));
  for (const r of rows) {
    const list = out.get(r.caseId) ?? [];
    list.push(siblingOf(r.id, r.state, r.code, r.name));
    out.set(r.caseId, list);
  }
  return out;
}

/** An activity in brief, from its id, state and type. */
export function siblingOf(id: number, state: string, code: string, name: string): SiblingActivity {
  return {
    id,
    state,
    state_display: isCaseActivityState(state) ? CASE_ACTIVITY_STATE_LABELS[state] : state,
    activity_type: code,
    activity_type_name: name,
  };
}

export interface ActivityView {
  row: ActivityRow;
  code: string;
  typeName: string;
  kind: string;
}

/** Who is reading an activity: notes are shown only to operations staff (point 6). */
export type NotesViewer = Pick<Actor, 'isOps'>;

/** `{notes}` for operations staff, nothing for anyone else. */
export function notesFor(viewer: NotesViewer, notes: string): { notes?: string } {
  return viewer.isOps ? { notes } : {};
}

/**
 * An activity's own fields as the case detail's SQL gives them (json_build_object below): the
 * contract's fields but the case and the label, with the notes for `notesFor` to keep or drop.
 */
export type ActivityJson = Omit<CaseActivityOut, 'case' | 'state_display' | 'notes'> & {
  notes: string;
};

/** The one activity presenter (contract: caseActivityOut): from a row or from the detail's JSON. */
export function activityOut<P extends CaseActivityOut['case']>(
  a: ActivityJson,
  parent: P,
  viewer: NotesViewer,
): CaseActivityOut & { case: P } {
  const { notes, ...fields } = a;
  return {
    id: fields.id,
    case: parent,
    state: fields.state,
    state_display: isCaseActivityState(a.state) ? CASE_ACTIVITY_STATE_LABELS[a.state] : a.state,
    activity_type: fields.activity_type,
    activity_type_name: fields.activity_type_name,
    key: fields.key,
    config: fields.config,
    result_data: fields.result_data,
    processing_data: fields.processing_data,
    ...notesFor(viewer, notes),
    created_at: fields.created_at,
    updated_at: fields.updated_at,
    completed_at: fields.completed_at,
  };
}

export function presentActivity<P extends CaseActivityOut['case']>(
  a: ActivityView,
  parent: P,
  viewer: NotesViewer,
): CaseActivityOut & { case: P } {
  return activityOut(
    {
      id: a.row.id,
      state: a.row.state,
      activity_type: a.code,
      activity_type_name: a.typeName,
      key: a.kind,
      config: a.row.config,
      result_data: a.row.resultData,
      processing_data: a.row.processingData,
      notes: a.row.notes,
      created_at: a.row.createdAt.toISOString(),
      updated_at: a.row.updatedAt.toISOString(),
      completed_at: iso(a.row.completedAt),
    },
    parent,
    viewer,
  );
}

export async function activitiesOfCase(tx: Tx, caseId: number): Promise<ActivityView[]> {
  const rows = await tx
    .select({
      row: caseActivities,
      code: activityTypes.code,
      typeName: activityTypes.name,
      kind: activityTypes.kind,
    })
    .from(caseActivities)
    .innerJoin(activityTypes, eq(activityTypes.id, caseActivities.activityTypeId))
    .where(eq(caseActivities.caseId, caseId))
    .orderBy(asc(caseActivities.position), asc(caseActivities.id));
  return rows;
}

/** A row of an outstanding list: the activity with its case's state, subject and customer. */
export interface QueueRow extends ActivityView {
  caseState: string;
  subjectId: number;
  firstName: string;
  lastName: string;
  email: string;
  customerName: string;
}

/**
 * The outstanding lists' items (the customer's and operations'): each activity under its case
 * with the case's activities (`siblings`, by case id), its customer, and operations' claim for
 * the team only (issue 29).
 */
export function presentQueueRows(
  rows: readonly QueueRow[],
  siblings: Map<number, SiblingActivity[]>,
  viewer: NotesViewer,
) {
  return rows.map((r) => ({
    ...presentActivity(
      r,
      {
        id: r.row.caseId,
        state: r.caseState,
        subject: {
          id: r.subjectId,
          first_name: r.firstName,
          last_name: r.lastName,
          email: r.email,
        },
        case_activities: siblings.get(r.row.caseId) ?? [],
      },
      viewer,
    ),
    customer: r.row.customerId,
    customer_name: r.customerName,
    ...(viewer.isOps ? { claim: claimOf(r.row) } : {}),
  }));
}
