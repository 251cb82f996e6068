// The SQL that begins a transaction as its role with its tenant settings (SET LOCAL).
import { APP_ROLE, OPS_ROLE, SUBJECT_ROLE, SYSTEM_ROLE } from './roles.js';
import type { TxSettings } from './types.js';

/** The role and the `app.*` settings a transaction runs with (SET LOCAL), as SQL text. */
export function settingsSql(s: TxSettings): string {
  const int = (v: number | null | undefined) => {
    if (v === null || v === undefined) return '';
    if (!Number.isSafeInteger(v)) throw new Error('tenant settings must be integers');
    return String(v);
  };
  // The cross-tenant contexts (ops, system) are separate roles whose policies allow every row
  // (see security.ts); each holds only its own grants.
  const role =
    s.scope === 'system'
      ? SYSTEM_ROLE
      : s.scope === 'all'
        ? OPS_ROLE
        : s.subjectId !== null && s.subjectId !== undefined
          ? SUBJECT_ROLE
          : APP_ROLE;
  // SET LOCAL rather than one SELECT set_config(...): the same transaction-local settings, but
  // the answer is command tags, not a row the driver must describe and parse. Only what the
  // policies read (security.ts) and, in a writing transaction, the acting user for triggers:
  // each statement is a command PostgreSQL parses and answers, per transaction. A setting left
  // out reads as '' (every app.* setting is only ever SET LOCAL), which the policies take as null.
  const set = (name: string, v: number | null | undefined) =>
    v === null || v === undefined ? '' : `; SET LOCAL app.${name} = '${int(v)}'`;
  // The application role's policies read the acting user too (its segments: security.ts).
  return (
    `SET LOCAL ROLE ${role}${set('customer_id', s.customerId)}${set('subject_id', s.subjectId)}` +
    (s.readOnly && role !== APP_ROLE ? '' : set('user_id', s.userId))
  );
}

/** BEGIN (READ ONLY when the transaction only reads) and the settings, for one message. */
export function beginSql(s: TxSettings): string {
  return `${s.readOnly ? 'BEGIN READ ONLY' : 'BEGIN'}; ${settingsSql(s)}`;
}

/** The settings inside a transaction PGlite has begun. */
export function pgliteSettingsSql(s: TxSettings): string {
  return `${s.readOnly ? 'SET TRANSACTION READ ONLY; ' : ''}${settingsSql(s)}`;
}
