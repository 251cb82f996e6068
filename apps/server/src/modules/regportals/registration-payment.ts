import { paymentPortalPath } from '@kestrel/domain';
import { and, eq } from 'drizzle-orm';
import type { PaymentPurpose } from '../../platform/module.js';
import type { ServiceContext } from '../../platform/service-context.js';
import { paymentIntents } from '../payments/payments.table.js';
import { cancelPurposeIntent, createPurposeIntent } from '../payments/service.js';
import { registrationCaseJob } from './case-job.js';
import { addEvent, markRegistrationPaid, type RegistrationRow } from './registrations.service.js';
import { portalRegistrations, registrationPortals } from './regportals.table.js';

/** The payment intents' purpose of a registration whose subject pays (purpose_id: its id). */
export const REGISTRATION_PURPOSE = 'registration';

/**
 * The payment of a registration whose subject pays (issue 31): an intent of the payment portal
 * for the registration (purpose 'registration', made once), its id kept on the registration;
 * answers the payment portal's link.
 */
export async function startRegistrationPayment(
  ctx: ServiceContext,
  r: RegistrationRow,
  pence: number,
): Promise<string | null> {
  const [portal] = await ctx.tx
    .select({
      title: registrationPortals.title,
      segmentId: registrationPortals.segmentId,
      path: registrationPortals.path,
    })
    .from(registrationPortals)
    .where(
      and(
        eq(registrationPortals.customerId, r.customerId),
        eq(registrationPortals.id, r.regPortalId),
      ),
    );
  const { row, url } = await createPurposeIntent(ctx, {
    customerId: r.customerId,
    purpose: REGISTRATION_PURPOSE,
    purposeId: r.id,
    amountPence: pence,
    reason: `Registration: ${portal?.title ?? 'checks'}`,
  });
  await ctx.tx
    .update(portalRegistrations)
    .set({ paymentIntentId: row.id, updatedAt: ctx.clock.now() })
    .where(and(eq(portalRegistrations.customerId, r.customerId), eq(portalRegistrations.id, r.id)));
  await addEvent(ctx, r, 'awaiting_payment', `Payment ${row.publicId}`);
  return portal ? withNext(url, portal) : url;
}

/**
 * The payment portal's link with where 'Continue' goes once paid (`next`): the portal's signed-in
 * page, whose button takes the person to their registration's case (point 2's /s/ form).
 */
export function withNext(url: string, portal: { segmentId: number; path: string }): string {
  const next = `/s/self-initiate/${portal.segmentId}/${encodeURIComponent(portal.path)}`;
  return `${url}?next=${encodeURIComponent(next)}`;
}

/** The payment portal's link of the registration's intent, or null when it has none. */
export async function paymentLinkOf(
  ctx: ServiceContext,
  r: Pick<RegistrationRow, 'customerId' | 'paymentIntentId' | 'regPortalId'>,
): Promise<string | null> {
  if (r.paymentIntentId === null) return null;
  const [i] = await ctx.tx
    .select({
      publicId: paymentIntents.publicId,
      segmentId: registrationPortals.segmentId,
      path: registrationPortals.path,
    })
    .from(paymentIntents)
    .innerJoin(
      registrationPortals,
      and(
        eq(registrationPortals.customerId, r.customerId),
        eq(registrationPortals.id, r.regPortalId),
      ),
    )
    .where(
      and(eq(paymentIntents.customerId, r.customerId), eq(paymentIntents.id, r.paymentIntentId)),
    );
  return i ? withNext(paymentPortalPath(i.publicId), i) : null;
}

/** Cancels the registration's intent when it expires (still awaiting: never a paid one). */
export async function cancelRegistrationPayment(
  ctx: ServiceContext,
  r: Pick<RegistrationRow, 'customerId' | 'id'>,
): Promise<void> {
  await cancelPurposeIntent(ctx, {
    customerId: r.customerId,
    purpose: REGISTRATION_PURPOSE,
    purposeId: r.id,
  });
}

/**
 * What the payments webhook calls once the registration's intent is settled (in its system
 * transaction): paid moves the registration to 'paid' and enqueues the registration-case job,
 * which opens the case once in the customer's tenant; declined leaves it awaiting payment.
 */
export const registrationPaymentPurpose: PaymentPurpose = {
  async settle(ctx, intent, outcome) {
    if (intent.purposeId === null) return;
    if (await markRegistrationPaid(ctx, intent.purposeId, outcome)) {
      await ctx.enqueue(registrationCaseJob(intent.customerId, intent.purposeId));
    }
  },
};
