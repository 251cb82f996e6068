import { type SQL, sql } from 'drizzle-orm';
import type { Tx } from '../../db/connection.js';
import type { Actor } from '../../platform/context.js';
import { opsCustomerFilter, queryString } from '../../platform/query-params.js';
import { cases } from '../cases/cases.table.js';
import { ENCRYPTED_COLUMNS, fieldCipher, normaliseForIndex } from '../encryption/field-cipher.js';

/**
 * What an identifier looks like: letters and digits, 5 to 30 of them (spaces aside), at least
 * one a digit (national insurance, passport and licence numbers all have digits; names do not,
 * so a search by name never pays for the identifier lookup).
 */
const IDENTIFIER = /^(?=.*[0-9])[A-Z0-9]{5,30}$/;

/** The term as an identifier is compared (upper case, no spaces), or null when it is none. */
export function identifierTerm(term: string): string | null {
  const value = normaliseForIndex(term);
  return IDENTIFIER.test(value) ? value : null;
}

/** The searched columns (those with a keyed hash) and the term's hash in each. */
function hashesOf(value: string) {
  const cipher = fieldCipher();
  return ENCRYPTED_COLUMNS.flatMap((c) =>
    c.hash ? [{ table: c.table, hash: c.hash, value: cipher.hash(c, value) }] : [],
  );
}

/**
 * The condition on `cases` (the case list's query) that finds a case by the exact national
 * insurance, passport or driving licence number of its data, whatever its spacing or case
 * (`ab 12 34 56 c` finds AB123456C): the keyed hashes beside the encrypted values
 * (decision 027), an index each on (customer_id, hash). Null for a term that is no identifier
 * (a name, an email), so the caller searches as before.
 */
export function caseIdentifierCondition(term: string): SQL | null {
  const value = identifierTerm(term);
  if (value === null) return null;
  const matches = hashesOf(value).map(
    (h) => sql`exists (select 1 from ${sql.identifier(h.table)} x
      where x.customer_id = ${cases.customerId} and x.case_id = ${cases.id}
        and x.${sql.identifier(h.hash)} = ${h.value})`,
  );
  return sql`(${sql.join(matches, sql` or `)})`;
}

/**
 * The ids of `customerId`'s cases whose national insurance, passport or driving licence number
 * is exactly `term` (however spaced or cased), through the keyed hashes and their
 * (customer_id, hash) indexes; [] for a term that is no identifier. The case list's search asks
 * this first and, when it finds cases, lists them (cases.repo.ts `caseListWhere`).
 */
export async function casesWithIdentifier(
  tx: Tx,
  customerId: number,
  term: string,
): Promise<number[]> {
  const value = identifierTerm(term);
  if (value === null) return [];
  const lookups = hashesOf(value).map(
    (h) => sql`select case_id from ${sql.identifier(h.table)}
      where customer_id = ${customerId} and ${sql.identifier(h.hash)} = ${h.value}`,
  );
  const rows = await tx.execute<{ case_id: number | string }>(
    sql`${sql.join(lookups, sql` union `)} order by case_id`,
  );
  return rows.map((r) => Number(r.case_id));
}

/**
 * The ids of the cases of every customer whose national insurance, passport or driving licence
 * number is exactly `term` (the operations' case list without `?customer=`): each customer's
 * keyed hashes looked up in turn through the same (customer_id, hash) indexes (a lateral lookup
 * per customer, no scan of a table); [] for a term that is no identifier. Only for the
 * cross-tenant context: a customer's staff search their own customer (`casesWithIdentifier`).
 */
export async function casesWithIdentifierInAnyCustomer(tx: Tx, term: string): Promise<number[]> {
  const value = identifierTerm(term);
  if (value === null) return [];
  const lookups = hashesOf(value).map(
    (h) => sql`select x.case_id from customers c cross join lateral (
        select case_id from ${sql.identifier(h.table)}
        where customer_id = c.id and ${sql.identifier(h.hash)} = ${h.value}) x`,
  );
  const rows = await tx.execute<{ case_id: number | string }>(
    sql`${sql.join(lookups, sql` union `)} order by case_id`,
  );
  return rows.map((r) => Number(r.case_id));
}

/**
 * The cases a list's `?search=` identifies exactly, for the case and activity lists: a tenant's
 * list looks up its own customer's cases only; the operations' list those of its `?customer=`,
 * or without one every customer's ([] without a term, or for a term that is no identifier).
 */
export async function casesIdentifiedBy(
  tx: Tx,
  q: unknown,
  actor: Actor,
  scope: 'tenant' | 'ops',
): Promise<number[]> {
  const term = queryString(q, 'search')?.trim();
  if (!term) return [];
  const customerId = scope === 'ops' ? opsCustomerFilter(q) : actor.customerId;
  if (customerId !== null) return casesWithIdentifier(tx, customerId, term);
  // operations without `?customer=`: every customer's hashes, customer by customer
  return scope === 'ops' ? casesWithIdentifierInAnyCustomer(tx, term) : [];
}
