import {
  isReminderTooSoon,
  PAYMENT_METHOD_MESSAGES,
  REMINDER_MESSAGES_OFF,
  REMINDER_TOO_SOON,
} from '@kestrel/domain';
import { eq } from 'drizzle-orm';
import { emailJob } from '../../../jobs/send-email.js';
import { recordAudit } from '../../../platform/audit.js';
import { ValidationError } from '../../../platform/errors.js';
import type { ServiceContext } from '../../../platform/service-context.js';
import { processes } from '../../processes/processes.table.js';
import { getSubject } from '../../subjects/subjects.service.js';
import { subjectUsers } from '../../users/users.table.js';
import { CASE_CT, caseRepr, lockCase } from '../cases.service.js';
import { cases } from '../cases.table.js';
import { type CaseMailDeps, subjectEmail } from './subject-email.js';

/**
 * Reminds the subject of a case waiting for it (cases, subjects, processes, accounts and mail):
 * the email (with a fresh claim link when it has no account yet) enqueued in the context's
 * transaction, the case's last reminder time set, and the reminder audited. Refused within 24
 * hours of the last reminder (automatic or manual), and for a subject who turned the product's
 * emails off.
 */
export async function sendReminder(
  ctx: ServiceContext,
  deps: CaseMailDeps,
  id: number,
): Promise<{ detail: string }> {
  const { tx, actor } = ctx;
  const c = await lockCase(tx, id);
  if (c.state === 'awaiting-payment') {
    // its invitation goes once the case is paid (issue 30)
    throw ValidationError.of('non_field_errors', PAYMENT_METHOD_MESSAGES.invitationAwaitsPayment);
  }
  if (c.state !== 'awaiting-subject' || c.archivedAt) {
    throw ValidationError.of('non_field_errors', 'The case is not waiting for the subject.');
  }
  // never two reminders within 24 hours, automatic ones included (issue 33)
  if (isReminderTooSoon(c.lastReminderAt, ctx.clock.now())) {
    throw ValidationError.of('non_field_errors', REMINDER_TOO_SOON);
  }
  const subject = await getSubject(tx, c.subjectId);
  // the subject's own choice (dbs_email_notifications) holds for a reminder a person sends too;
  // only security messages go whatever it says (issue 33)
  if (subject.userId !== null) {
    const [u] = await tx
      .select({ on: subjectUsers.dbsEmailNotifications })
      .from(subjectUsers)
      .where(eq(subjectUsers.id, subject.userId));
    if (u && !u.on) throw ValidationError.of('non_field_errors', REMINDER_MESSAGES_OFF);
  }
  const [p] = await tx.select().from(processes).where(eq(processes.id, c.processId));
  const mail = await subjectEmail(ctx, deps, subject, id, p?.invitationMessage ?? '', true);
  await tx.update(cases).set({ lastReminderAt: ctx.clock.now() }).where(eq(cases.id, id));
  await recordAudit(tx, actor, {
    verb: 'reminder_sent',
    contentType: CASE_CT,
    objectId: id,
    objectRepr: caseRepr(id, subject),
    changes: { to: subject.email },
  });
  await ctx.enqueue(emailJob(mail));
  return { detail: 'Reminder sent' };
}
