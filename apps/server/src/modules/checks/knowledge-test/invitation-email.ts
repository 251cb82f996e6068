import { eq } from 'drizzle-orm';
import { emailJob } from '../../../jobs/send-email.js';
import { emailSite } from '../../../platform/email-site.js';
import { brandedEmail } from '../../../platform/email-template.js';
import type { ServiceContext } from '../../../platform/service-context.js';
import { customers } from '../../customers/customers.table.js';

/**
 * The subject's invitation to the knowledge test, by email through the outbox (a job of the
 * transaction that records the invitation): the platform's link, and the case in the portal,
 * where the same link is shown.
 */
export async function sendTestInvitation(
  ctx: ServiceContext,
  o: {
    site: string;
    to: string;
    firstName: string;
    customerId: number;
    caseId: number;
    testUrl: string;
  },
): Promise<void> {
  const [c] = await ctx.tx
    .select({ name: customers.name })
    .from(customers)
    .where(eq(customers.id, o.customerId));
  const org = c?.name ?? 'your organisation';
  const site = emailSite(undefined, o.site);
  await ctx.enqueue(
    emailJob(
      brandedEmail(site, {
        to: o.to,
        subject: `Your knowledge test for ${org}`,
        greeting: `Hello ${o.firstName},`,
        paragraphs: [
          `${org} has asked you to take a knowledge test online. It takes about 30 minutes.`,
        ],
        action: { label: 'Take the knowledge test', url: o.testUrl },
        after: [`The link is also on your case: ${site.publicUrl}/s/cases/${o.caseId}`],
      }),
    ),
  );
}
