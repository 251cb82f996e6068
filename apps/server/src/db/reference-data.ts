import * as domain from '@kestrel/domain';
import { sql } from 'drizzle-orm';
import { z } from 'zod';
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
  ['totp_enabled', 'TOTP enabled'],
  ['totp_disabled', 'TOTP disabled'],
  ['password_reset_requested', 'Password reset requested'],
  ['password_changed', 'Password changed'],
  ['account_claimed', 'Account claimed'],
  ['registered', 'Registered'],
  ['permission_denied', 'Permission denied'],
  ['ops_session_started', 'Ops session started'],
  ['ops_session_ended', 'Ops session ended'],
] as const;
export type VerbCode = (typeof VERBS)[number][0];

/** Activity types (kinds of check). `kind` groups result panels. */
export const ACTIVITY_TYPES = [
  ['dbs-basic', 'Basic DBS check', 'dbs'],
  ['dbs-standard', 'Standard DBS check', 'dbs'],
  ['dbs-enhanced', 'Enhanced DBS check', 'dbs'],
  ['dbs-update', 'DBS update service check', 'dbs-update'],
  ['adult-first', 'DBS adult first check', 'adult-first'],
  ['driver-data', 'Driving licence check', 'driver-data'],
  ['right-to-work', 'Right to work check', 'right-to-work'],
  ['idv', 'Online identity verification', 'idv'],
] as const;

const countryListSchema = z.array(
  z.object({
    code: z.string().length(3),
    name: z.string(),
    nationality: z.string(),
    deprecated: z.boolean().default(false),
    ebulk_missing: z.boolean().default(false),
  }),
);

/**
 * The ISO country list from @kestrel/domain (`COUNTRIES`). Read by name so that the server still
 * builds while the domain package is being written; an absent list seeds no countries.
 */
export function domainCountries(): z.infer<typeof countryListSchema> {
  const raw: unknown = Reflect.get(domain, 'COUNTRIES');
  if (raw === undefined) return [];
  const list = Array.isArray(raw)
    ? raw
    : typeof raw === 'object' && raw
      ? Object.entries(raw).map(([code, v]) => ({ code, ...(v as object) }))
      : [];
  return countryListSchema.parse(list);
}

/** Upserts the reference tables (idempotent; runs as the owner after migrations). */
export async function syncReferenceData(tx: Tx): Promise<void> {
  await tx
    .insert(verbs)
    .values(VERBS.map(([code, name]) => ({ code, name })))
    .onConflictDoUpdate({ target: verbs.code, set: { name: sql`excluded.name` } });
  await tx
    .insert(activityTypes)
    .values(ACTIVITY_TYPES.map(([code, name, kind]) => ({ code, name, kind })))
    .onConflictDoUpdate({
      target: activityTypes.code,
      set: { name: sql`excluded.name`, kind: sql`excluded.kind` },
    });
  const list = domainCountries();
  if (list.length > 0) {
    await tx
      .insert(countries)
      .values(
        list.map((c) => ({
          code: c.code,
          name: c.name,
          nationality: c.nationality,
          deprecated: c.deprecated,
          ebulkMissing: c.ebulk_missing,
          sortOrder: c.code === 'GBR' ? 0 : 1,
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
