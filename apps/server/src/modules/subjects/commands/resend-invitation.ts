import { PAYMENT_METHOD_MESSAGES } from '@kestrel/domain';
import { and, eq, isNull, notInArray } from 'drizzle-orm';
import { emailJob } from '../../../jobs/send-email.js';
import { recordAudit } from '../../../platform/audit.js';
import { emailSite } from '../../../platform/email-site.js';
import { ValidationError } from '../../../platform/errors.js';
import type { RateLimitRule } from '../../../platform/rate-limit.js';
import type { ServiceContext } from '../../../platform/service-context.js';
import { claimInvitation } from '../../accounts/accounts.service.js';
import { cases } from '../../cases/cases.table.js';
import { customers } from '../../customers/customers.table.js';
import { getSubject, SUBJECT_CT, subjectRepr } from '../subjects.service.js';

/** Invitations one person may be sent per rate-limit window (config.rateLimits.windowMs). */
export const RESEND_INVITATIONS_PER_WINDOW = 3;

export const ALREADY_CLAIMED = 'This person has claimed their account already.';

/** The rate-limit rule of resending `subjectId`'s invitation (counted before the transaction). */
export const resendInvitationRule = (customerId: number, subjectId: number): RateLimitRule => ({
  key: `invitation:${customerId}:${subjectId}`,
  max: RESEND_INVITATIONS_PER_WINDOW,
});

/**
 * Sends again the invitation of a person without an account yet (subjects, accounts and mail):
 * a fresh single-use claim link (the earlier ones keep working until they expire), the email
 * enqueued in the context's transaction, and the sending audited. A person with an account is
 * refused (a reminder of a case signs them in instead: the case's send-reminder). So is a person
 * whose open cases all await their payment (issue 30: the charge is declined or still pending):
 * their invitation goes by itself once a case is paid, never before.
 */
export async function resendInvitation(
  ctx: ServiceContext,
  deps: { publicUrl: string },
  id: number,
): Promise<{ detail: string }> {
  const { tx, actor } = ctx;
  const subject = await getSubject(tx, id, true);
  if (subject.loginClaimed) throw ValidationError.of('non_field_errors', ALREADY_CLAIMED);
  if (await onlyHeldForPayment(ctx, subject.customerId, id)) {
    throw ValidationError.of('non_field_errors', PAYMENT_METHOD_MESSAGES.invitationAwaitsPayment);
  }
  const [org] = await tx
    .select({ name: customers.name })
    .from(customers)
    .where(eq(customers.id, subject.customerId));
  const site = emailSite(actor.brandAddress, deps.publicUrl);
  const mail = await claimInvitation(tx, ctx.clock.now(), site, subject, org?.name);
  await recordAudit(tx, actor, {
    verb: 'invitation_sent',
    contentType: SUBJECT_CT,
    objectId: id,
    objectRepr: subjectRepr(subject),
    changes: { to: subject.email },
  });
  await ctx.enqueue(emailJob(mail));
  return { detail: 'Invitation sent' };
}

/**
 * True when the person has a case awaiting its payment and no other open case (one not held,
 * not complete or cancelled, not archived) that an invitation could be for.
 */
async function onlyHeldForPayment(
  ctx: ServiceContext,
  customerId: number,
  subjectId: number,
): Promise<boolean> {
  const open = await ctx.tx
    .select({ state: cases.state })
    .from(cases)
    .where(
      and(
        eq(cases.customerId, customerId),
        eq(cases.subjectId, subjectId),
        isNull(cases.archivedAt),
        notInArray(cases.state, ['complete', 'cancelled']),
      ),
    );
  return (
    open.some((c) => c.state === 'awaiting-payment') &&
    open.every((c) => c.state === 'awaiting-payment')
  );
}
