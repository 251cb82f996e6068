import {
  BRAND_DETAILS,
  isoDate,
  REG_PORTAL_UNAVAILABLE_MESSAGES,
  type RegPortalPublicOut,
} from '@kestrel/domain';
import { and, asc, eq } from 'drizzle-orm';
import type { Tx } from '../../db/connection.js';
import { NotFoundError } from '../../platform/errors.js';
import type { ServiceContext } from '../../platform/service-context.js';
import { activityTypes } from '../bootstrap/bootstrap.table.js';
import { customerEntitlements, customers } from '../customers/customers.table.js';
import { quoteProcess } from '../pricebooks/pricebooks.service.js';
import { processes, processRequirements } from '../processes/processes.table.js';
import { liveRegistrationCounts, type PortalRow, unavailableOf } from './portals.service.js';
import { registrationPortals } from './regportals.table.js';

/**
 * The portal of a public link (segment and path), read by the system before its customer is
 * known: 404 when there is none, its process is inactive, or its customer no longer holds the
 * `regportals` entitlement (the link stops working with the screens and the API).
 */
export async function portalOfLink(tx: Tx, segmentId: number, path: string): Promise<PortalRow> {
  const [r] = await tx
    .select({ p: registrationPortals })
    .from(registrationPortals)
    .innerJoin(
      processes,
      and(
        eq(processes.customerId, registrationPortals.customerId),
        eq(processes.id, registrationPortals.processId),
      ),
    )
    .innerJoin(
      customerEntitlements,
      and(
        eq(customerEntitlements.customerId, registrationPortals.customerId),
        eq(customerEntitlements.entitlement, 'regportals'),
      ),
    )
    .where(
      and(
        eq(registrationPortals.segmentId, segmentId),
        eq(registrationPortals.path, path),
        eq(processes.isActive, true),
      ),
    )
    .limit(1);
  if (!r) throw new NotFoundError();
  return r.p;
}

/** What the public page shows (in the portal's customer's tenant). */
export async function publicView(
  ctx: ServiceContext,
  portal: PortalRow,
): Promise<RegPortalPublicOut> {
  const [c] = await ctx.tx
    .select({ name: customers.name, brand: customers.brand })
    .from(customers)
    .where(eq(customers.id, portal.customerId));
  const [p] = await ctx.tx
    .select({ name: processes.name })
    .from(processes)
    .where(eq(processes.id, portal.processId));
  const checks = await ctx.tx
    .select({ name: activityTypes.name })
    .from(processRequirements)
    .innerJoin(activityTypes, eq(activityTypes.id, processRequirements.activityTypeId))
    .where(eq(processRequirements.processId, portal.processId))
    .orderBy(asc(processRequirements.position), asc(processRequirements.id));
  const counts = await liveRegistrationCounts(ctx.tx, [portal.id]);
  const reason = unavailableOf(portal, counts.get(portal.id) ?? 0, isoDate(ctx.clock.now()));
  const quote =
    portal.payer === 'subject'
      ? await quoteProcess(ctx, portal.customerId, portal.processId)
      : null;
  return {
    title: portal.title,
    introduction: portal.introduction,
    brand: (BRAND_DETAILS.find((b) => b.id === c?.brand) ?? BRAND_DETAILS[0])?.name ?? '',
    customer_name: c?.name ?? '',
    process_name: p?.name ?? '',
    checks: checks.map((x) => x.name),
    payer: portal.payer,
    price_pence: quote ? quote.total_pence : null,
    currency: quote ? 'gbp' : null,
    ask_email: portal.askEmail,
    ask_dob: portal.askDob,
    ask_phone: portal.askPhone,
    unavailable: reason,
    unavailable_message: reason ? REG_PORTAL_UNAVAILABLE_MESSAGES[reason] : null,
  };
}
