import {
  ACTIVITY_KINDS,
  type CasePortalOut,
  caseBasicDetailsOut,
  caseDrivingLicenceOut,
  casePassportOut,
  isActivityKindCode,
  isCaseOpen,
  isCaseSubmitted,
  missingConsents,
  PAY_TOP_UP_LABEL,
  PORTAL_SECTION_LABELS,
  PORTAL_SUBMITTED_SECTION,
  type PortalActivityOut,
  type PortalSection,
  portalProgress,
  portalStepCounts,
  requiredConsents,
  SUBMIT_WITHOUT_CONSENT,
  type SubjectCaseOut,
  submittedActivityState,
} from '@kestrel/domain';
import { and, asc, eq, inArray, sql } from 'drizzle-orm';
import type { Tx } from '../../db/connection.js';
import { recordAudit } from '../../platform/audit.js';
import type { Actor } from '../../platform/context.js';
import { NotFoundError, ValidationError } from '../../platform/errors.js';
import type { ServiceContext } from '../../platform/service-context.js';
import { changeActivity } from '../activities/activities.service.js';
import { caseActivities } from '../activities/activities.table.js';
import { activityTypes } from '../bootstrap/bootstrap.table.js';
import { basicDetails, drivingLicences, passports } from '../case-data/case-data.resources.js';
import { retrieveSingle } from '../case-data/case-data.service.js';
import { CASE_CT, caseRepr } from '../cases/cases.service.js';
import { cases } from '../cases/cases.table.js';
import { activitiesSubmitted } from '../checks/hooks.js';
import { customers } from '../customers/customers.table.js';
import { portalSubscriptions } from '../cycles/subscriptions.service.js';
import { onlineIdvOf } from '../online-idv/online-idv.service.js';
import { subjects } from '../subjects/subjects.table.js';
import { consentsInTenant } from './consents.service.js';
import { lockOwnCase } from './subject-scope.js';
import { activityStateWords, caseStateWords } from './subject-words.js';

interface CaseFacts {
  id: number;
  customerId: number;
  customerName: string;
  state: string;
  createdAt: Date;
  lastCompleted: string | null;
  activities: {
    id: number;
    code: string;
    name: string;
    state: string;
    config: PortalActivityOut['config'];
    /** The payment intent of the top-up the activity awaits, if it awaits one. */
    topUpIntent: string | null;
  }[];
}

/** The case, its customer and its activities (RLS decides what the caller sees). */
export async function caseFacts(tx: Tx, caseIds: readonly number[]): Promise<CaseFacts[]> {
  if (caseIds.length === 0) return [];
  const rows = await tx
    .select({
      id: cases.id,
      customerId: cases.customerId,
      customerName: customers.name,
      state: cases.state,
      createdAt: cases.createdAt,
      lastCompleted: cases.portalLastCompletedSection,
    })
    .from(cases)
    .innerJoin(customers, eq(customers.id, cases.customerId))
    .where(inArray(cases.id, [...caseIds]))
    .orderBy(asc(cases.createdAt), asc(cases.id));
  const acts = await tx
    .select({
      caseId: caseActivities.caseId,
      id: caseActivities.id,
      code: activityTypes.code,
      name: activityTypes.name,
      state: caseActivities.state,
      config: caseActivities.config,
      // only while the activity waits for it (a cancelled check's top-up is not paid)
      topUpIntent: sql<string | null>`case when ${caseActivities.state} = 'ca-awaiting-subject'
        and ${caseActivities.processingData}->'top_up'->>'status' = 'awaiting'
        then ${caseActivities.processingData}->'top_up'->>'payment_intent' end`,
    })
    .from(caseActivities)
    .innerJoin(activityTypes, eq(activityTypes.id, caseActivities.activityTypeId))
    .where(inArray(caseActivities.caseId, [...caseIds]))
    .orderBy(asc(caseActivities.position), asc(caseActivities.id));
  return rows.map((r) => ({
    ...r,
    activities: acts.filter((a) => a.caseId === r.id).map(({ caseId: _, ...a }) => a),
  }));
}

function progressOf(facts: CaseFacts) {
  const activityCodes = facts.activities.map((a) => a.code);
  const input = {
    activityCodes,
    requiredConsents: requiredConsents(activityCodes),
    // a cycle's case is opened with one activity per requirement of its cycle (openCycleCase),
    // so dbs-update and driver-data from a cycle come through activityCodes; a subscription of
    // the subject's to another cycle adds nothing to this case
    cycleRequirements: [],
  };
  const submitted = isCaseSubmitted({
    state: facts.state,
    portalLastCompletedSection: facts.lastCompleted,
  });
  const computed = portalProgress({ ...input, lastCompletedSection: facts.lastCompleted });
  // once submitted, everything but Done is done
  const progress = submitted
    ? {
        ...computed,
        completed: computed.total,
        percent: 100,
        next: 'done' as const,
      }
    : computed;
  return { input, submitted, progress };
}

function activityOut(a: CaseFacts['activities'][number]): PortalActivityOut {
  return {
    id: a.id,
    activity_type: { code: a.code, code_display: a.name },
    state: a.state,
    state_display: activityStateWords(a.state),
    config: a.config,
  };
}

async function optional<T>(fn: () => Promise<T>): Promise<T | null> {
  try {
    return await fn();
  } catch (e) {
    if (e instanceof NotFoundError) return null;
    throw e;
  }
}

/** GET /api/s/case-portal/{case}/: the portal payload of point 3 (in the case's tenant). */
export async function portalPayload(ctx: ServiceContext, caseId: number): Promise<CasePortalOut> {
  const [facts] = await caseFacts(ctx.tx, [caseId]);
  if (!facts) throw new NotFoundError();
  const { progress, submitted } = progressOf(facts);
  const basic = await optional(() => retrieveSingle(ctx, basicDetails, 'subject', caseId));
  const passport = await optional(() => retrieveSingle(ctx, passports, 'subject', caseId));
  const licence = await optional(() => retrieveSingle(ctx, drivingLicences, 'subject', caseId));
  return {
    portal: {
      id: facts.id,
      customer: { id: facts.customerId, name: facts.customerName },
      state: facts.state,
      case_activities: facts.activities.map(activityOut),
      required_consents: requiredConsents(facts.activities.map((a) => a.code)),
      portal_last_completed_section: facts.lastCompleted,
      sections: progress.sections,
      progress: {
        completed: progress.completed,
        total: progress.total,
        percent: progress.percent,
        next: progress.next,
      },
      submitted,
    },
    basic_details: basic ? caseBasicDetailsOut.parse(basic) : null,
    documentation: {
      passport: passport ? casePassportOut.parse(passport) : null,
      driving_licence: licence ? caseDrivingLicenceOut.parse(licence) : null,
    },
    online_idv: await onlineIdvOf(ctx, caseId),
    // the subject's open subscriptions, each with its cycle's requirements (issue 31)
    subscriptions: await portalSubscriptions(ctx.tx, caseId),
  };
}

/** The portal's own frame around the check sections: not something a case "needs" (but Review). */
const FRAME_SECTIONS = new Set<PortalSection>(['welcome', 'done']);

/** A case as the subject's dashboard and case pages show it. */
export function subjectCase(facts: CaseFacts): SubjectCaseOut {
  const { progress, submitted } = progressOf(facts);
  const unfinished = submitted ? [] : progress.sections.slice(progress.completed);
  // once submitted, what can still wait for the person: a top-up a provider demands
  const payment = submitted
    ? (facts.activities.find((a) => a.topUpIntent !== null)?.topUpIntent ?? null)
    : null;
  const needs = unfinished
    .filter((s) => !FRAME_SECTIONS.has(s))
    .map((s) => PORTAL_SECTION_LABELS[s]);
  if (payment !== null) needs.push(PAY_TOP_UP_LABEL);
  const next = progress.next;
  const steps = portalStepCounts(progress.sections, progress.completed);
  const open = isCaseOpen(facts.state);
  return {
    id: facts.id,
    customer: { id: facts.customerId, name: facts.customerName },
    state: facts.state,
    state_display: caseStateWords(facts.state),
    created_at: facts.createdAt.toISOString(),
    submitted,
    // the person's count is of the steps they are asked for (what Welcome lists), not of the
    // portal's frame around them
    progress: { completed: steps.done, total: steps.total, percent: steps.percent, next },
    needs,
    next_step: !open
      ? null
      : !submitted
        ? {
            label: progress.completed === 0 ? 'Start' : `Continue: ${PORTAL_SECTION_LABELS[next]}`,
            section: next,
            payment_intent: null,
          }
        : payment !== null
          ? { label: PAY_TOP_UP_LABEL, section: next, payment_intent: payment }
          : null,
    case_activities: facts.activities.map((a) => {
      const { config: _, ...rest } = activityOut(a);
      return rest;
    }),
  };
}

/** The case's facts read in the system transaction of a write (after `lockOwnCase`). */
async function factsOf(ctx: ServiceContext, caseId: number): Promise<CaseFacts> {
  const [facts] = await caseFacts(ctx.tx, [caseId]);
  if (!facts) throw new NotFoundError();
  return facts;
}

async function reprOf(ctx: ServiceContext, customerId: number, caseId: number, subjectId: number) {
  const [s] = await ctx.tx
    .select({ firstName: subjects.firstName, lastName: subjects.lastName })
    .from(subjects)
    .where(and(eq(subjects.customerId, customerId), eq(subjects.id, subjectId)));
  return caseRepr(caseId, s ?? { firstName: '', lastName: '' });
}

/**
 * PATCH /api/s/case-portal/{case}/: records the last completed section. Progress never moves
 * back (going back to change an earlier section keeps the furthest point reached); a section the
 * case does not have is refused (400). 403 once submitted.
 */
export async function saveProgress(
  ctx: ServiceContext,
  caseId: number,
  value: string,
): Promise<void> {
  const own = await lockOwnCase(ctx, caseId, 'write');
  const facts = await factsOf(ctx, caseId);
  const { input, progress } = progressOf(facts);
  const [name = ''] = value.split('/');
  if (!progress.sections.includes(name as PortalSection) || name === 'done') {
    throw ValidationError.of('portal_last_completed_section', 'Not a section of this case.');
  }
  // Review is done by submitting (POST submit): a PATCH would mark the case submitted unsent
  if (name === PORTAL_SUBMITTED_SECTION) {
    throw ValidationError.of('portal_last_completed_section', REVIEW_BY_SUBMITTING);
  }
  const wanted = portalProgress({ ...input, lastCompletedSection: value });
  if (wanted.completed < progress.completed || value === facts.lastCompleted) return;
  await ctx.tx
    .update(cases)
    .set({ portalLastCompletedSection: value, updatedAt: ctx.clock.now() })
    .where(eq(cases.id, caseId));
  await recordAudit(ctx.tx, ctx.actor, {
    customerId: own.customerId,
    verb: 'progressed',
    contentType: CASE_CT,
    objectId: caseId,
    objectRepr: await reprOf(ctx, own.customerId, caseId, own.subjectId),
    changes: { portal_last_completed_section: [facts.lastCompleted, value] },
  });
}

/**
 * Staff send a submitted case back to its subject (an activity moved to ca-awaiting-subject):
 * the portal reopens at Review & Submit (the progress one step before it), audited, so the
 * person can change what was asked and submit again. A case not submitted is left as it is.
 * (A provider's top-up demand does not reopen it: the person only pays.)
 */
export async function reopenPortal(tx: Tx, actor: Actor, caseId: number, now: Date) {
  const [facts] = await caseFacts(tx, [caseId]);
  if (!facts || facts.lastCompleted !== PORTAL_SUBMITTED_SECTION) return;
  const { sections } = progressOf(facts).progress;
  const before = sections[sections.indexOf(PORTAL_SUBMITTED_SECTION) - 1] ?? null;
  await tx
    .update(cases)
    .set({ portalLastCompletedSection: before, updatedAt: now })
    .where(eq(cases.id, caseId));
  await recordAudit(tx, actor, {
    customerId: facts.customerId,
    verb: 'updated',
    contentType: CASE_CT,
    objectId: caseId,
    objectRepr: `Case ${caseId}`,
    changes: { portal_last_completed_section: [PORTAL_SUBMITTED_SECTION, before] },
  });
}

export const SUBMIT_INCOMPLETE = 'Please complete every section before submitting.';
export const REVIEW_BY_SUBMITTING = 'Review & Submit is completed by submitting the case.';

/**
 * POST /api/s/case-portal/{case}/submit/ (Review & Submit, point 4): every activity waiting for
 * the subject (and every not yet started one the portal has a section for) moves on as its kind
 * says (`submittedActivityState`: complete when nothing needs checking, awaiting operations' review,
 * else in progress), the case follows, the progress reaches Review; all audited, in one transaction, then the check
 * engine hears of the moved activities. Refused (400) while a check it would move lacks a live
 * consent its kind asks for (`missingConsents`: SUBMIT_WITHOUT_CONSENT). The portal is read-only afterwards (403 on writes).
 */
export async function submitPortal(ctx: ServiceContext, caseId: number): Promise<number[]> {
  const own = await lockOwnCase(ctx, caseId, 'write');
  const facts = await factsOf(ctx, caseId);
  const { progress } = progressOf(facts);
  // every section before Review done (Review itself is this step)
  const reviewAt = progress.sections.indexOf(PORTAL_SUBMITTED_SECTION);
  if (progress.completed < reviewAt) {
    throw ValidationError.of('non_field_errors', SUBMIT_INCOMPLETE);
  }
  const moving = facts.activities.filter(
    (a) =>
      a.state === 'ca-awaiting-subject' ||
      (a.state === 'ca-pending' &&
        isActivityKindCode(a.code) &&
        ACTIVITY_KINDS[a.code].portalSection !== null),
  );
  const now = ctx.clock.now();
  // each check moved on needs the consent its kind asks for, live (the declaration of its
  // section): skipping a section's declaration by progress alone does not submit it
  const outs = facts.activities.map(activityOut);
  const consents = await consentsInTenant(ctx.tx, now, { caseIds: [caseId] });
  const movingIds = new Set(moving.map((a) => a.id));
  const unconsented = missingConsents(
    outs,
    consents,
    outs.filter((a) => movingIds.has(a.id)),
  );
  if (unconsented.length > 0) {
    throw ValidationError.of('non_field_errors', SUBMIT_WITHOUT_CONSENT);
  }
  for (const a of moving) {
    // each kind ends as its registry entry says: complete, up for review, or in progress
    const to = submittedActivityState(a.code);
    if (a.state === 'ca-pending' && to !== 'ca-in-progress') {
      await changeActivity(ctx.tx, ctx.actor, a.id, { state: 'ca-in-progress' }, now);
    }
    await changeActivity(ctx.tx, ctx.actor, a.id, { state: to }, now);
  }
  await ctx.tx
    .update(cases)
    .set({ portalLastCompletedSection: PORTAL_SUBMITTED_SECTION, updatedAt: now })
    .where(eq(cases.id, caseId));
  await recordAudit(ctx.tx, ctx.actor, {
    customerId: own.customerId,
    verb: 'submitted',
    contentType: CASE_CT,
    objectId: caseId,
    objectRepr: await reprOf(ctx, own.customerId, caseId, own.subjectId),
    changes: {
      portal_last_completed_section: [facts.lastCompleted, PORTAL_SUBMITTED_SECTION],
      case_activities: moving.map((a) => a.id),
    },
  });
  const ids = moving.map((a) => a.id);
  await activitiesSubmitted(ctx, caseId, ids);
  return ids;
}
