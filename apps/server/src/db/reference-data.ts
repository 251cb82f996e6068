import { ACTIVITY_KIND_CODES, ACTIVITY_KINDS, COUNTRIES } from '@kestrel/domain';
import { sql } from 'drizzle-orm';
import { activityTypes, countries, verbs } from '../modules/bootstrap/bootstrap.table.js';
import type { Tx } from './connection.js';

/** Audit verbs. New verbs are appended; codes never change. */
export const VERBS = [
  ['created', 'Created'],
  ['updated', 'Updated'],
  ['deleted', 'Deleted'],
  ['archived', 'Archived'],
  ['logged_in', 'Logged in'],
  ['login_failed', 'Login failed'],
  ['logged_out', 'Logged out'],
  ['totp_failed', 'TOTP failed'],
  ['totp_replayed', 'TOTP code replayed'],
  ['totp_generated', 'TOTP secret generated (not yet confirmed)'],
  ['totp_enabled', 'TOTP enabled'],
  ['totp_disabled', 'TOTP disabled'],
  ['password_reset_requested', 'Password reset requested'],
  ['password_changed', 'Password changed'],
  ['account_claimed', 'Account claimed'],
  ['registered', 'Registered'],
  ['permission_denied', 'Permission denied'],
  ['ops_session_started', 'Ops session started'],
  ['ops_session_ended', 'Ops session ended'],
  ['cancelled', 'Cancelled'],
  ['restored', 'Restored'],
  ['submitted', 'Submitted'],
  ['invited', 'Invited'],
  ['decision_recorded', 'Decision recorded'],
  ['reminder_sent', 'Reminder sent'],
  ['invitation_sent', 'Invitation sent'],
  ['exported', 'Exported'],
  ['note_added', 'Note added'],
  ['requested', 'Requested'],
  ['progressed', 'Progressed'],
  ['state_changed', 'State changed'],
  ['downloaded', 'Downloaded'],
  ['merged', 'Merged'],
  ['pdf_generated', 'PDF generated'],
  ['resolved', 'Resolved'],
  ['rejected', 'Rejected'],
  // issue 33: the invitation lifecycle and the ops jobs screen
  ['invitation_expired', 'Invitation expired'],
  ['invitation_resent', 'Invitation resent'],
  ['job_retried', 'Job retried'],
  ['job_discarded', 'Job discarded'],
  // issue 34: data protection (subject access, erasure, retention)
  ['erasure_requested', 'Erasure requested'],
  ['erasure_refused', 'Erasure refused'],
  ['erasure_approved', 'Erasure approved'],
  ['erasure_carried_out', 'Erasure carried out'],
  ['sign_in_closed', 'Sign-in closed'],
  ['data_archive_downloaded', 'Data archive downloaded'],
  ['legal_hold_set', 'Legal hold set'],
  ['legal_hold_lifted', 'Legal hold lifted'],
  ['redacted', 'Redacted'],
] as const;
export type VerbCode = (typeof VERBS)[number][0];

/** Activity types: one per activity kind of @kestrel/domain; `kind` is its result panel. */
export const ACTIVITY_TYPES = Object.entries(ACTIVITY_KINDS).map(([code, k]) => ({
  code,
  name: k.name,
  kind: k.resultPanel,
}));

/** Old activity type codes and the registry code that replaces them. */
export const RENAMED_ACTIVITY_TYPES = [
  ['right-to-work', 'rtw'],
  ['idv', 'online-idv'],
] as const;

/** Upserts the reference tables (idempotent; runs as the owner after migrations). */
export async function syncReferenceData(tx: Tx): Promise<void> {
  await tx
    .insert(verbs)
    .values(VERBS.map(([code, name]) => ({ code, name })))
    .onConflictDoUpdate({ target: verbs.code, set: { name: sql`excluded.name` } });
  await tx
    .insert(activityTypes)
    .values(ACTIVITY_TYPES)
    .onConflictDoUpdate({
      target: activityTypes.code,
      set: { name: sql`excluded.name`, kind: sql`excluded.kind` },
    });
  // Codes that are no longer activity kinds (e.g. early seeds' `right-to-work`, `idv`): rows
  // of customers and requirements that still use them move to the registry's code, then go.
  for (const [old, current] of RENAMED_ACTIVITY_TYPES) {
    await tx.execute(sql`
      with o as (select id from activity_types where code = ${old}),
           n as (select id from activity_types where code = ${current})
      update process_requirements set activity_type_id = (select id from n)
        where activity_type_id in (select id from o)`);
    await tx.execute(sql`
      with o as (select id from activity_types where code = ${old}),
           n as (select id from activity_types where code = ${current})
      update case_activities set activity_type_id = (select id from n)
        where activity_type_id in (select id from o)`);
    await tx.execute(sql`
      insert into customer_activity_types (customer_id, activity_type_id, enabled, note)
      select cat.customer_id, n.id, cat.enabled, cat.note
        from customer_activity_types cat
        join activity_types o on o.id = cat.activity_type_id and o.code = ${old}
        cross join (select id from activity_types where code = ${current}) n
      on conflict do nothing`);
  }
  await tx.execute(sql`
    delete from customer_activity_types where activity_type_id in
      (select id from activity_types where code not in ${ACTIVITY_KIND_CODES})`);
  await tx.execute(sql`
    delete from activity_types a where a.code not in ${ACTIVITY_KIND_CODES}
      and not exists (select 1 from process_requirements r where r.activity_type_id = a.id)
      and not exists (select 1 from case_activities c where c.activity_type_id = a.id)`);
  const list = Object.entries(COUNTRIES);
  if (list.length > 0) {
    await tx
      .insert(countries)
      .values(
        list.map(([code, c]) => ({
          code,
          name: c.name,
          nationality: c.nationality,
          deprecated: c.deprecated,
          ebulkMissing: c.ebulk_missing,
          sortOrder: code === 'GBR' ? 0 : 1,
        })),
      )
      .onConflictDoUpdate({
        target: countries.code,
        set: {
          name: sql`excluded.name`,
          nationality: sql`excluded.nationality`,
          deprecated: sql`excluded.deprecated`,
          ebulkMissing: sql`excluded.ebulk_missing`,
          sortOrder: sql`excluded.sort_order`,
        },
      });
  }
}
