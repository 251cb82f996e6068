import { type ConsentRenewedEventData, formatDate, type SubjectConsentOut } from '@kestrel/domain';
import { and, eq } from 'drizzle-orm';
import { emailJob } from '../../jobs/send-email.js';
import { recordAudit } from '../../platform/audit.js';
import { brandedEmail } from '../../platform/email-template.js';
import { NotFoundError } from '../../platform/errors.js';
import type { ServiceContext } from '../../platform/service-context.js';
import { cases } from '../cases/cases.table.js';
import { CONSENT_CT, renewDvlaConsent } from '../portal/consents.service.js';
import { subjectConsents } from '../portal/consents.table.js';
import { subjects } from '../subjects/subjects.table.js';
import { customerEmailSite } from '../users/users.service.js';
import { emitWebhookEvent } from '../webhooks/webhook-events.js';
import { customerAdministrators } from './expiry-reminders-job.js';

/**
 * The subject's DVLA re-consent (issue 33, /s/dvla-reconsent), in the system's transaction on the
 * subject's behalf (the actor is the subject's, acting for the consent's customer, as for a
 * withdrawal): the portal's renewal (`renewDvlaConsent`: the same consent record and rules as the
 * driver-data section, a new 3-year mandate replacing the old one, noted in the person's
 * `dvla_reconsents`), the old consent's renewal audited, and the customer's administrators told
 * by email. The expiry calendar and its reminders read only consents not renewed, so the old date
 * leaves the calendar and gets no further reminder. The customer's webhook endpoints subscribed
 * to `consent.renewed` hear of it (the event's job enqueued in this transaction). Refusals are the renewal's: 404 for a consent
 * not the subject's or already renewed, 400 for one not due, withdrawn or of another kind.
 */
export async function renewDvlaMandate(
  ctx: ServiceContext,
  deps: { publicUrl: string },
  consentId: number,
): Promise<SubjectConsentOut> {
  const renewed = await renewDvlaConsent(ctx, consentId);
  const [old] = await ctx.tx
    .select({
      customerId: subjectConsents.customerId,
      caseId: subjectConsents.caseId,
      expiresAt: subjectConsents.expiresAt,
      renewedAt: subjectConsents.renewedAt,
      first: subjects.firstName,
      last: subjects.lastName,
    })
    .from(subjectConsents)
    .innerJoin(
      cases,
      and(eq(cases.customerId, subjectConsents.customerId), eq(cases.id, subjectConsents.caseId)),
    )
    .innerJoin(
      subjects,
      and(eq(subjects.customerId, cases.customerId), eq(subjects.id, cases.subjectId)),
    )
    .where(eq(subjectConsents.id, consentId));
  if (!old) throw new NotFoundError();
  await recordAudit(ctx.tx, ctx.actor, {
    customerId: old.customerId,
    verb: 'updated',
    contentType: CONSENT_CT,
    objectId: consentId,
    objectRepr: `Consent ${consentId} renewed by consent ${renewed.id}`,
    changes: {
      renewed_at: [null, old.renewedAt?.toISOString() ?? null],
      renewed_by: renewed.id,
      case: old.caseId,
      expires_at: [old.expiresAt?.toISOString() ?? null, renewed.expires_at],
    },
  });
  const renewedAt = old.renewedAt ?? ctx.clock.now();
  const event: ConsentRenewedEventData = {
    consent: {
      id: renewed.id,
      replaces: consentId,
      kind: renewed.kind,
      case: renewed.case,
      case_activity: renewed.case_activity,
      renewed_at: renewedAt.toISOString(),
      expires_at: renewed.expires_at,
      replaced_expires_at: old.expiresAt?.toISOString() ?? null,
    },
  };
  await emitWebhookEvent(ctx.tx, old.customerId, 'consent.renewed', event, renewedAt);
  const name = `${old.first} ${old.last}`.trim() || 'A subject';
  const site = await customerEmailSite(ctx.tx, old.customerId, undefined, deps.publicUrl);
  const ends = renewed.expires_at ? formatDate(renewed.expires_at) : '';
  const ended = old.expiresAt ? formatDate(old.expiresAt.toISOString()) : '';
  for (const a of await customerAdministrators(ctx, old.customerId)) {
    await ctx.enqueue(
      emailJob(
        brandedEmail(site, {
          to: a.email,
          subject: `${name} renewed their consent for driving licence checks`,
          greeting: `Hello ${a.name || a.email},`,
          paragraphs: [
            `${name} renewed their consent for driving licence checks (the DVLA mandate) for case ${old.caseId}.`,
            `The new consent ends on ${ends}${ended ? `; the one ending on ${ended} is replaced` : ''}.`,
          ],
          action: { label: 'Open the case', url: `${site.publicUrl}/cases/${old.caseId}` },
        }),
      ),
    );
  }
  return renewed;
}
