import type { Database } from '../src/db/connection.js';

/** What the case scenarios need, or why they cannot run. */
export type CaseSeed = { available: false; reason: string } | { available: true };

/** Loads the cases data set when the cases module (table `cases`) exists. */
export async function seedCases(db: Database, _customerIds: number[]): Promise<CaseSeed> {
  const rows = await db.readInline(
    { scope: 'all', customerId: null },
    `select to_regclass('public.cases') is not null as present`,
  );
  if (rows[0]?.present !== true) {
    return { available: false, reason: 'the cases module (table cases) does not exist yet' };
  }
  return { available: false, reason: 'the cases bench data loader is not written yet' };
}
