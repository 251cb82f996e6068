import { type SQL, sql } from 'drizzle-orm';
import { cases } from '../cases/cases.table.js';
import { ENCRYPTED_COLUMNS, fieldCipher, normaliseForIndex } from '../encryption/field-cipher.js';

/** What an identifier looks like: letters and digits, 5 to 30 of them (spaces aside). */
const IDENTIFIER = /^[A-Z0-9]{5,30}$/;

/**
 * The condition on `cases` (the case list's query) that finds a case by the exact national
 * insurance, passport or driving licence number of its data, whatever its spacing or case
 * (`ab 12 34 56 c` finds AB123456C): the keyed hashes beside the encrypted values
 * (decision 027), an index each on (customer_id, hash). Null for a term that is no identifier
 * (a name, an email), so the caller searches as before.
 */
export function caseIdentifierCondition(term: string): SQL | null {
  const value = normaliseForIndex(term);
  if (!IDENTIFIER.test(value)) return null;
  const cipher = fieldCipher();
  const matches = ENCRYPTED_COLUMNS.flatMap((c) =>
    c.hash
      ? [
          sql`exists (select 1 from ${sql.identifier(c.table)} x
            where x.customer_id = ${cases.customerId} and x.case_id = ${cases.id}
              and x.${sql.identifier(c.hash)} = ${cipher.hash(c, value)})`,
        ]
      : [],
  );
  return sql`(${sql.join(matches, sql` or `)})`;
}
