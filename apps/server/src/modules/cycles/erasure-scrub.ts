import { sql } from 'drizzle-orm';
import type { Tx } from '../../db/connection.js';

/** The audit's content type of a subscription (subscriptions.service.ts's SUBSCRIPTION_CT). */
const SUBSCRIPTION_CT = 'subscriptions.subscription';

/**
 * A subject's erasure (issue 34): the audit rows of its subscriptions whose label names it
 * (`{first} {last}: {cycle}`, written when it subscribed) become `Subscription {id}: {cycle}`;
 * the rest of the row stays. As the owner (the audit log's scrub); idempotent.
 */
export async function scrubSubscriptionAuditRows(
  tx: Tx,
  customerId: number,
  subjectId: number,
): Promise<number> {
  const rows = await tx.execute(sql`
    update audit_actions a set object_repr = left('Subscription ' || s.id || ': ' || c.name, 200)
    from subscriptions s
    join cycles c on c.customer_id = s.customer_id and c.id = s.cycle_id
    where s.customer_id = ${customerId} and s.subject_id = ${subjectId}
      and a.customer_id = s.customer_id and a.content_type = ${SUBSCRIPTION_CT}
      and a.object_id = s.id::text and a.object_repr not ilike 'subscription %'
    returning a.id`);
  return rows.length;
}
