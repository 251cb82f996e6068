import { sql } from 'drizzle-orm';

/** Integer ids as one array parameter (`= any(...)`): thousands of ids, not a parameter each. */
export const integerArray = (list: readonly number[]) =>
  sql`${`{${list.map((n) => Math.trunc(n)).join(',')}}`}::integer[]`;
