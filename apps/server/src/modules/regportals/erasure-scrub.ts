import { ERASURE_RULE } from '@kestrel/domain';
import { sql } from 'drizzle-orm';
import type { Tx } from '../../db/connection.js';

/*
 * A subject's erasure (issue 34, modules/data-requests) and the registrations that carry their
 * name: the registration rows' details, and the audit rows' labels and copies of them.
 */

/** The audit's content type of a registration (registrations.service.ts's REGISTRATION_CT). */
const REGISTRATION_CT = 'regportals.portalregistration';

/** The erased registration's email: unique per registration, and findable by its subject. */
const erasedEmail = (customerId: number, subjectId: number) =>
  sql`'erased-' || ${String(customerId)} || '-' || ${String(subjectId)} || '-r' || id || '@erased.invalid'`;
const erasedPattern = (customerId: number, subjectId: number) =>
  `erased-${customerId}-${subjectId}-r%@erased.invalid`;

/**
 * Erases subject `subjectId`'s registrations at customer `customerId`, in the erasure's tenant
 * transaction: the one that led to the subject and any other with its email (one that expired
 * before it) lose the name, email, date of birth, phone and confirmation token; their portal,
 * state, dates and history stay. `email` is the subject's email before its erasure. Returns how
 * many were erased.
 */
export async function eraseRegistrations(
  tx: Tx,
  customerId: number,
  subjectId: number,
  email: string,
): Promise<number> {
  const rows = await tx.execute(sql`
    update portal_registrations set first_name = 'Erased', last_name = 'subject',
      email = ${erasedEmail(customerId, subjectId)}, dob = null, phone = null, token_hash = null,
      updated_at = now()
    where customer_id = ${customerId}
      and (subject_id = ${subjectId} or lower(email) = lower(${email}))
      and email not like '%@erased.invalid'
    returning id`);
  return rows.length;
}

/** The registration fields an audit row may copy (registered: email; a resend: to). */
const FIELDS = sql`array['first_name', 'last_name', 'email', 'dob', 'phone', 'to']`;

/**
 * The audit rows of the erased subject's registrations (eraseRegistrations's): the label (the
 * person's name) becomes `Registration {id}`, the copied details go (`redacted: erasure`); the
 * verb, state changes, who and when stay. As the owner (the audit log's scrub); idempotent.
 */
export async function scrubRegistrationAuditRows(
  tx: Tx,
  customerId: number,
  subjectId: number,
): Promise<number> {
  const rows = await tx.execute(sql`
    update audit_actions a set
      object_repr = 'Registration ' || r.id,
      changes = (a.changes - ${FIELDS}::text[])
        || case when a.changes ?| ${FIELDS}::text[]
          then jsonb_build_object('redacted', ${ERASURE_RULE}::text) else '{}'::jsonb end
    from portal_registrations r
    where r.customer_id = ${customerId}
      and (r.subject_id = ${subjectId} or r.email like ${erasedPattern(customerId, subjectId)})
      and a.customer_id = r.customer_id and a.content_type = ${REGISTRATION_CT}
      and a.object_id = r.id::text
      and (a.object_repr <> 'Registration ' || r.id or a.changes ?| ${FIELDS}::text[])
    returning a.id`);
  return rows.length;
}
