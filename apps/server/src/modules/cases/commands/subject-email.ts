import { eq } from 'drizzle-orm';
import type { Tx } from '../../../db/connection.js';
import type { MailMessage } from '../../../platform/mailer.js';
import type { ServiceContext } from '../../../platform/service-context.js';
import { claimInvitation } from '../../accounts/accounts.service.js';
import { customers } from '../../customers/customers.table.js';
import type { SubjectRow } from '../../subjects/subjects.service.js';

/** What the case commands need besides the context: where links in their emails point. */
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
  ctx: Pick<ServiceContext, 'tx' | 'clock'>,
  deps: CaseMailDeps,
  subject: SubjectRow,
  caseId: number,
  extra: string,
  reminder: boolean,
): Promise<MailMessage> {
  const org = await customerName(ctx.tx, subject.customerId);
  const tail = extra ? `\n\n${extra}` : '';
  if (!subject.loginClaimed) {
    const mail = await claimInvitation(ctx.tx, ctx.clock.now(), deps.publicUrl, subject, org);
    return {
      ...mail,
      subject: reminder ? `Reminder: ${mail.subject}` : mail.subject,
      text: `${mail.text}${tail}`,
    };
  }
  const link = `${deps.publicUrl}/s/cases/${caseId}`;
  return {
    to: subject.email,
    subject: reminder ? `Reminder: checks requested by ${org}` : `Checks requested by ${org}`,
    text: `Hello ${subject.firstName},\n\n${org} has asked you to complete some checks in Kestrel.\nSign in and open your case:\n${link}${tail}`,
  };
}
