import { eq } from 'drizzle-orm';
import type { Tx } from '../../../db/connection.js';
import { emailSite } from '../../../platform/email-site.js';
import { brandedEmail } from '../../../platform/email-template.js';
import type { MailMessage } from '../../../platform/mailer.js';
import type { ServiceContext } from '../../../platform/service-context.js';
import { claimInvitation } from '../../accounts/accounts.service.js';
import { customers } from '../../customers/customers.table.js';
import type { SubjectRow } from '../../subjects/subjects.service.js';

/**
 * What the case commands need besides the context: where links in their emails point when the
 * request did not come through a brand's host (the actor's brandAddress wins; see emailSite).
 */
export interface CaseMailDeps {
  /** The product's public address (config.publicUrl), without a trailing slash. */
  publicUrl: string;
}

async function customerName(tx: Tx, customerId: number): Promise<string> {
  const [c] = await tx
    .select({ name: customers.name })
    .from(customers)
    .where(eq(customers.id, customerId));
  return c?.name ?? 'your organisation';
}

/**
 * The email asking the subject to complete its checks: with a claim link when it has no
 * account yet (a fresh single-use token, issued in the context's transaction), else a link to
 * the case in the portal.
 */
export async function subjectEmail(
  ctx: Pick<ServiceContext, 'tx' | 'clock' | 'actor'>,
  deps: CaseMailDeps,
  subject: SubjectRow,
  caseId: number,
  extra: string,
  reminder: boolean,
): Promise<MailMessage> {
  const org = await customerName(ctx.tx, subject.customerId);
  const site = emailSite(ctx.actor.brandAddress, deps.publicUrl);
  const more = extra ? [extra] : [];
  if (!subject.loginClaimed) {
    return claimInvitation(ctx.tx, ctx.clock.now(), site, subject, org, more, reminder);
  }
  const link = `${site.publicUrl}/s/cases/${caseId}`;
  return brandedEmail(site, {
    to: subject.email,
    subject: reminder ? `Reminder: checks requested by ${org}` : `Checks requested by ${org}`,
    greeting: `Hello ${subject.firstName},`,
    paragraphs: [`${org} has asked you to complete some checks in ${site.brand.name}.`, ...more],
    action: { label: 'Sign in and open your case', url: link },
  });
}
