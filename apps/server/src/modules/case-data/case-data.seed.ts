import { sql } from 'drizzle-orm';
import type { DemoSeedContext } from '../../platform/module.js';
import {
  type CaseKey,
  createAddressHistory,
  createCaseBasicDetails,
  createCaseBirthDetails,
  createCaseDrivingLicence,
  createCaseOtherName,
  createCasePassport,
  type Person,
} from './case-data.factories.js';

/** How many of Acme's open cases (besides the demo subject's) get case data. */
const ACME_CASES = 5;

/**
 * Case data for the open case of subject@example.test and several open Acme cases: basic and
 * birth details, a previous name that needs its '(for DBS)' value, a five-year address history
 * with one gap and an idsp current address, a passport and a photocard licence whose number fits
 * the holder.
 */
export async function seedCaseData(ctx: DemoSeedContext): Promise<void> {
  const { tx, clock } = ctx;
  const today = clock.now();
  const ids = Object.values(ctx.subjects).map((s) => Math.trunc(s.id));
  const demo = sql.raw(ids.length > 0 ? `array[${ids.join(',')}]::int[]` : 'array[]::int[]');
  const rows = await tx.execute<{
    id: number;
    customer_id: number;
    first_name: string;
    middlename: string;
    last_name: string;
    dob: string | null;
    demo: boolean;
  }>(sql`
    select c.id, c.customer_id, s.first_name, s.middlename, s.last_name, s.dob,
      s.id = any(${demo}) as demo
    from cases c join subjects s on s.customer_id = c.customer_id and s.id = c.subject_id
    where c.archived_at is null and c.state not in ('complete', 'cancelled')
      and (c.customer_id = ${ctx.customers.acme} or s.id = any(${demo}))
    order by (s.id = any(${demo})) desc, c.id`);
  let acme = 0;
  for (const row of rows) {
    if (!row.demo) {
      if (row.customer_id !== ctx.customers.acme || acme >= ACME_CASES) continue;
      acme += 1;
    }
    const key: CaseKey = { customerId: row.customer_id, caseId: row.id };
    const person: Person = {
      forename: row.first_name,
      middlename: row.middlename,
      surname: row.last_name,
      dob: row.dob ?? '1990-05-17',
      gender: acme % 2 === 0 ? 'female' : 'male',
    };
    await createCaseBasicDetails(tx, key, person);
    await createCaseBirthDetails(tx, key);
    await createCaseOtherName(tx, key, {
      forename: person.forename,
      surname: 'Núñez-Ó Briain',
      surnameDbs: 'Nunez-O Briain',
      fromDate: '2008-06-01',
      toDate: '2015-03-31',
    });
    await createAddressHistory(tx, key, today);
    await createCasePassport(tx, key, today);
    await createCaseDrivingLicence(tx, key, person, today);
  }
}
