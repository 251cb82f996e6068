import type { BrandDetails } from '@kestrel/domain';
import { eq } from 'drizzle-orm';
import { emailJob } from '../../jobs/send-email.js';
import { brandedEmail } from '../../platform/email-template.js';
import type { MailMessage } from '../../platform/mailer.js';
import type { ServiceContext } from '../../platform/service-context.js';
import { claimInvitation } from '../accounts/accounts.service.js';
import { customers } from '../customers/customers.table.js';
import type { SubjectRow } from '../subjects/subjects.service.js';
import { customerEmailSite } from '../users/users.service.js';
import { smsJob } from './send-sms-job.js';

/** What a reminder or a resent invitation needs besides the context. */
export interface ReminderDeps {
  /** config.publicUrl, without a trailing slash. */
  publicUrl: string;
  /** NOTIFY_SMS_REMINDER_TEMPLATE or the default. */
  smsTemplateId: string;
}

/**
 * The email asking the subject to complete its checks, in the brand of the customer (its host
 * when the actor came through it): a fresh single-use claim link when the subject has no account
 * yet, else a link to the case in the portal.
 */
export async function caseEmail(
  ctx: Pick<ServiceContext, 'tx' | 'clock' | 'actor'>,
  deps: ReminderDeps,
  subject: SubjectRow,
  caseId: number,
  extra: string,
  reminder: boolean,
): Promise<{ mail: MailMessage; brand: BrandDetails; org: string; link: string }> {
  const [c] = await ctx.tx
    .select({ name: customers.name })
    .from(customers)
    .where(eq(customers.id, subject.customerId));
  const org = c?.name ?? 'your organisation';
  const site = await customerEmailSite(
    ctx.tx,
    subject.customerId,
    ctx.actor.brandAddress,
    deps.publicUrl,
  );
  const more = extra ? [extra] : [];
  if (!subject.loginClaimed) {
    const mail = await claimInvitation(ctx.tx, ctx.clock.now(), site, subject, org, more, reminder);
    return { mail, brand: site.brand, org, link: `${site.publicUrl}/auth/claim-account` };
  }
  const link = `${site.publicUrl}/s/cases/${caseId}`;
  const mail = brandedEmail(site, {
    to: subject.email,
    subject: reminder ? `Reminder: checks requested by ${org}` : `Checks requested by ${org}`,
    greeting: `Hello ${subject.firstName},`,
    paragraphs: [`${org} has asked you to complete some checks in ${site.brand.name}.`, ...more],
    action: { label: 'Sign in and open your case', url: link },
  });
  return { mail, brand: site.brand, org, link };
}

/**
 * Enqueues a reminder's messages in the context's transaction: the email, and a text message to
 * `mobile` when given (the text names no link: a claim link is single-use, the email holds it).
 */
export async function enqueueReminder(
  ctx: ServiceContext,
  deps: ReminderDeps,
  subject: SubjectRow,
  caseId: number,
  extra: string,
  mobile: string | null,
): Promise<void> {
  const { mail, brand, org } = await caseEmail(ctx, deps, subject, caseId, extra, true);
  await ctx.enqueue(emailJob(mail));
  if (!mobile) return;
  const body = `${brand.name}: ${org} is waiting for you to complete your checks. Please see the email we sent to ${subject.email}.`;
  await ctx.enqueue(
    smsJob({
      to: mobile,
      body,
      templateId: deps.smsTemplateId,
      personalisation: { first_name: subject.firstName, organisation: org, brand: brand.name },
      brand: brand.name,
      reference: `case-${caseId}`,
    }),
  );
}
