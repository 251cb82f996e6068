import type { SubjectCreate } from '@kestrel/domain';
import { canTransitionCase, deriveCaseState } from '@kestrel/domain';
import { asc, eq } from 'drizzle-orm';
import { emailJob } from '../../../jobs/send-email.js';
import { recordAudit } from '../../../platform/audit.js';
import {
  API_MESSAGES,
  NotFoundError,
  PermissionDeniedError,
  ValidationError,
} from '../../../platform/errors.js';
import type { ServiceContext } from '../../../platform/service-context.js';
import { caseActivities } from '../../activities/activities.table.js';
import { initialActivityState } from '../../activities/activity-state.js';
import { activityTypes } from '../../bootstrap/bootstrap.table.js';
import { holdCaseForPayment } from '../../payments/case-payment.js';
import { processes, processRequirements } from '../../processes/processes.table.js';
import { insertSubject, type SubjectRow, subjectColumns } from '../../subjects/subjects.service.js';
import { subjects } from '../../subjects/subjects.table.js';
import { emitWebhookEvent } from '../../webhooks/webhook-events.js';
import { CASE_CT, type CaseDetail, caseDetail, caseMoveError, caseRepr } from '../cases.service.js';
import { cases } from '../cases.table.js';
import { type CaseMailDeps, subjectEmail } from './subject-email.js';

export interface OpenCaseInput {
  process: number;
  subject?: number | undefined;
  new_subject?: SubjectCreate | undefined;
}

/**
 * Opens a case for the context's customer (processes, subjects, cases, accounts and mail): one
 * activity per process requirement (config copied), the case state derived from them, the
 * subject created when `new_subject` is given, and (when the process says so) the subject's
 * invitation enqueued in the same transaction. Runs from a route or without any request.
 */
export async function openCase(
  ctx: ServiceContext,
  deps: CaseMailDeps,
  input: OpenCaseInput,
  /** `charge: false`: not charged to the customer (the subject paid, issue 31). */
  opts: { charge?: boolean } = {},
): Promise<CaseDetail> {
  const { tx, actor } = ctx;
  if (actor.customerId === null) throw new PermissionDeniedError();
  if ((input.subject === undefined) === (input.new_subject === undefined)) {
    throw ValidationError.of('non_field_errors', 'Give subject or new_subject.');
  }
  if (input.new_subject && !actor.permissions.has('subjects.add_subject') && !actor.isOps) {
    throw new PermissionDeniedError();
  }
  const now = ctx.clock.now();
  const [process] = await tx
    .select()
    .from(processes)
    .where(eq(processes.id, input.process))
    .limit(1);
  if (!process) throw ValidationError.doesNotExist('process', input.process);
  if (!process.isActive) throw ValidationError.of('process', 'Inactive process.');
  const reqs = await tx
    .select({ r: processRequirements, code: activityTypes.code })
    .from(processRequirements)
    .innerJoin(activityTypes, eq(activityTypes.id, processRequirements.activityTypeId))
    .where(eq(processRequirements.processId, process.id))
    .orderBy(asc(processRequirements.position), asc(processRequirements.id));
  if (reqs.length === 0) throw ValidationError.of('process', 'This process has no requirements.');

  let subject: SubjectRow;
  if (input.new_subject) {
    subject = await insertSubject(tx, actor, actor.customerId, input.new_subject);
  } else {
    const id = input.subject ?? 0;
    const [s] = await tx.select(subjectColumns).from(subjects).where(eq(subjects.id, id)).limit(1);
    if (!s) throw ValidationError.doesNotExist('subject', id);
    if (s.archivedAt) throw ValidationError.of('subject', API_MESSAGES.subjectArchived);
    subject = s;
  }

  const states = reqs.map((q) => initialActivityState(q.code));
  const derived = deriveCaseState(states);
  if (derived !== 'pending' && !canTransitionCase('pending', derived))
    throw caseMoveError('pending', derived);
  const [c] = await tx
    .insert(cases)
    .values({
      customerId: actor.customerId,
      processId: process.id,
      subjectId: subject.id,
      state: derived,
      createdById: actor.type === 'ProductUser' ? actor.id : null,
      createdAt: now,
      updatedAt: now,
    })
    .returning();
  if (!c) throw new NotFoundError();
  await tx.insert(caseActivities).values(
    reqs.map((q, i) => ({
      customerId: actor.customerId ?? c.customerId,
      caseId: c.id,
      activityTypeId: q.r.activityTypeId,
      state: states[i] ?? 'ca-pending',
      position: i,
      config: q.r.config,
      createdAt: now,
      updatedAt: now,
    })),
  );
  const detail = await caseDetail(tx, c.id, actor);
  await recordAudit(tx, actor, {
    verb: 'created',
    contentType: CASE_CT,
    objectId: c.id,
    objectRepr: caseRepr(c.id, subject),
    changes: {
      process: process.id,
      subject: subject.id,
      state: derived,
      activities: reqs.map((q) => q.code),
    },
  });
  await emitWebhookEvent(
    tx,
    c.customerId,
    'case.created',
    {
      case: {
        id: c.id,
        state: derived,
        process: process.id,
        subject: subject.id,
        created_at: now.toISOString(),
      },
    },
    now,
  );
  // A case charged per case waits for its payment: its invitation goes once paid (issue 30).
  const held =
    opts.charge !== false &&
    (await holdCaseForPayment(ctx, {
      customerId: c.customerId,
      caseId: c.id,
      processId: process.id,
      processName: process.name,
    }));
  if (process.sendInvitation && !held) {
    await inviteSubject(ctx, deps, subject, c.id, process.invitationMessage);
  }
  return held ? caseDetail(tx, c.id, actor) : detail;
}

/**
 * The subject's invitation to its case, audited and enqueued in the context's transaction: as a
 * case opens, or once its payment succeeds (payments/case-charge.ts).
 */
export async function inviteSubject(
  ctx: ServiceContext,
  deps: CaseMailDeps,
  subject: SubjectRow,
  caseId: number,
  message: string,
): Promise<void> {
  const mail = await subjectEmail(ctx, deps, subject, caseId, message, false);
  await recordAudit(ctx.tx, ctx.actor, {
    verb: 'invited',
    contentType: CASE_CT,
    objectId: caseId,
    objectRepr: caseRepr(caseId, subject),
    changes: { to: subject.email },
  });
  await ctx.enqueue(emailJob(mail));
}
