import { sql } from 'drizzle-orm';
import type { Tx } from '../../db/connection.js';
import { decryptRecord } from '../encryption/field-cipher.js';

/**
 * The tables of a case's data (spec point 3) that hold the person's answers: what the archive
 * shows and what an erasure removes. Each has customer_id and case_id.
 */
export const CASE_DATA_TABLES = [
  'case_basic_details',
  'case_birth_details',
  'case_other_names',
  'case_addresses',
  'case_passports',
  'case_driving_licences',
  'case_dbs_details',
  'case_dbs_update_details',
  'case_rtw_details',
  'case_online_idv',
] as const;
export type CaseDataTable = (typeof CASE_DATA_TABLES)[number];

const idList = (ids: number[]) =>
  sql.join(
    ids.map((id) => sql`${id}`),
    sql`, `,
  );

/** Rows of `table` of the given cases of one customer, by case id (customer_id left out). */
export async function caseDataRows(
  tx: Tx,
  table: CaseDataTable,
  customerId: number,
  caseIds: number[],
): Promise<Record<number, Record<string, unknown>[]>> {
  if (caseIds.length === 0) return {};
  const rows = await tx.execute<Record<string, unknown>>(sql`
    select * from ${sql.identifier(table)}
    where customer_id = ${customerId} and case_id in (${idList(caseIds)})
    order by case_id`);
  const out: Record<number, Record<string, unknown>[]> = {};
  for (const { customer_id: _c, ...r } of rows) {
    const caseId = Number(r.case_id);
    out[caseId] ??= [];
    // encrypted fields (national insurance, passport and licence numbers) as their plain values
    out[caseId].push(decryptRecord(table, r));
  }
  return out;
}

/** Deletes the rows of `table` of the given cases of one customer; the number removed. */
export async function deleteCaseDataRows(
  tx: Tx,
  table: CaseDataTable,
  customerId: number,
  caseIds: number[],
): Promise<number> {
  if (caseIds.length === 0) return 0;
  const rows = await tx.execute<{ case_id: number }>(sql`
    delete from ${sql.identifier(table)}
    where customer_id = ${customerId} and case_id in (${idList(caseIds)})
    returning case_id`);
  return rows.length;
}
