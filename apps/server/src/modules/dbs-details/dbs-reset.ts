import { sql } from 'drizzle-orm';
import type { Tx } from '../../db/connection.js';
import { recordAudit } from '../../platform/audit.js';
import type { Actor } from '../../platform/context.js';

// The DBS details' reset when an application is sent back to its subject: apart from the
// details' service (which opens the check engine's gate), so the activities' send-back may call
// it without an import cycle.

export const DBS_DETAILS_CONTENT_TYPE = 'cases.casedbsdetails';

/**
 * A DBS application sent back to its subject (issue 27): its identity verification and any
 * countersignature no longer hold (the person may change what they entered, and the route), so
 * the case's DBS details go back to pending (awaiting verification), the documents lose the route
 * they were counted for, audited, in the caller's transaction. Nothing to do while pending.
 */
export async function resetDbsVerification(
  tx: Tx,
  actor: Actor,
  ref: { id: number; customerId: number },
): Promise<void> {
  const rows = await tx.execute<{ before: string; route: number | null }>(sql`
    update case_dbs_details as t set state = 'pending', verified_by = null, verified_at = null,
      identity_route = null, countersigned_by = null, countersigned_at = null, updated_at = now()
    from (select state as before, identity_route as route from case_dbs_details
      where customer_id = ${ref.customerId} and case_id = ${ref.id} for update) as old
    where t.customer_id = ${ref.customerId} and t.case_id = ${ref.id} and t.state <> 'pending'
    returning old.before, old.route`);
  const reset = rows[0];
  if (!reset) return;
  const counted = await tx.execute<{ id: number }>(sql`
    update case_documents set route_index = null, updated_at = now()
    where customer_id = ${ref.customerId} and case_id = ${ref.id} and route_index is not null
    returning id`);
  const documents = counted.map((d) => Number(d.id)).sort((a, b) => a - b);
  const changes: Record<string, [unknown, unknown]> = {
    state: [reset.before, 'pending'],
    identity_route: [reset.route, null],
    ...(documents.length > 0 ? { documents: [documents, null] } : {}),
  };
  await recordAudit(tx, actor, {
    verb: 'updated',
    contentType: DBS_DETAILS_CONTENT_TYPE,
    objectId: ref.id,
    objectRepr: `DBS details of case ${ref.id}`,
    customerId: ref.customerId,
    changes: { case: ref.id, fields: Object.keys(changes), personal: changes },
  });
}
