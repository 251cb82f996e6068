import { sql } from 'drizzle-orm';
import type { Database } from '../../db/connection.js';

/** How far back a retention run looks for redactions whose audit copies are still to scrub. */
export const SCRUB_WINDOW_MS = 7 * 86_400_000;

/**
 * The audit log's copies of a redacted activity's content, and the provider's callbacks about
 * it, scrubbed (issue 34): every change of
 * an activity's result is audited with its old and new `result_data` (and a hand edit of its
 * provider log with the whole log), so a redaction that left them would leave the content in the
 * database. For each redaction of an activity of `customerId` recorded since `since` (a
 * retention rule's or an erasure's), the audit rows about that activity written up to the
 * redaction lose `result_data` (and a whole `processing_data`), marked `redacted: <reason>`; the
 * state changes, who and when stay. The audit log is insert-only for the application's roles: this
 * runs as the tables' owner, after the redaction's own transaction, and is idempotent (a row
 * scrubbed is not selected again), so the next run finishes what a failure left.
 */
export async function scrubRedactedAuditCopies(
  db: Database,
  customerId: number,
  since: Date,
): Promise<number> {
  return db.ownerTransaction(async (tx) => {
    const rows = await tx.execute(sql`
      update audit_actions a set changes = (
          case when jsonb_typeof(a.changes->'processing_data') = 'array'
            then a.changes - 'result_data' - 'processing_data'
            else a.changes - 'result_data' end
        ) || jsonb_build_object('redacted', r.rule)
      from retention_redactions r
      where r.customer_id = ${customerId} and r.target = 'activity'
        and r.redacted_at >= ${since.toISOString()}
        and a.customer_id = r.customer_id and a.content_type = 'cases.caseactivity'
        and a.object_id = r.target_id::text and a.created_at <= r.redacted_at
        and (a.changes->'result_data' is not null
          or jsonb_typeof(a.changes->'processing_data') = 'array')
      returning a.id`);
    // the provider's callbacks about it, applied up to the redaction (kept raw in the inbox):
    // the body goes, the row (provider, event id, when, outcome) stays; index of migration 0055
    const inbox = await tx.execute(sql`
      update check_callback_inbox i set body = jsonb_build_object('redacted', r.rule)
      from retention_redactions r
      where r.customer_id = ${customerId} and r.target = 'activity'
        and r.redacted_at >= ${since.toISOString()}
        and i.case_activity_id = r.target_id and i.customer_id = r.customer_id
        and i.applied_at is not null and i.applied_at <= r.redacted_at
        and i.body->'redacted' is null
      returning i.id`);
    return rows.length + inbox.length;
  });
}
