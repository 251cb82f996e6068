import { sql } from 'drizzle-orm';
import type { Tx } from '../../db/connection.js';

/**
 * The subject records merged into subject `subjectId` of customer `customerId` as duplicates
 * (`merged_into_id`), and those merged into them, to any depth: a merge archives the duplicate
 * and moves its cases, but the duplicate keeps its own name, email, date of birth and phone, so
 * an erasure of the kept subject erases these too (issue 34). Ids in ascending order.
 */
export async function mergedDuplicateIds(
  tx: Tx,
  customerId: number,
  subjectId: number,
): Promise<number[]> {
  const rows = await tx.execute<{ id: number }>(sql`
    with recursive merged(id) as (
      select s.id from subjects s
      where s.customer_id = ${customerId} and s.merged_into_id = ${subjectId}
      union
      select s.id from subjects s join merged m on s.merged_into_id = m.id
      where s.customer_id = ${customerId}
    )
    select id from merged where id <> ${subjectId} order by id`);
  return rows.map((r) => Number(r.id));
}

/** What an erased subject is called where its name was (its record, who asked, who acted). */
export const ERASED_NAME = 'Erased subject';
