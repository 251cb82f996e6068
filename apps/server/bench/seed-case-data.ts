import type { Database } from '../src/db/connection.js';

/** Addresses per case: a current one (idsp), and two earlier ones with a gap between them. */
export const ADDRESSES_PER_CASE = 3;

/**
 * Case data for every bench case (issue 15), with set-based SQL: basic details from the subject,
 * and a five-year address history of three addresses with one gap (about six months) and an idsp
 * current address: 200,000 basic details and 600,000 addresses. False when the tables do not
 * exist (an older schema).
 */
export async function seedCaseData(db: Database): Promise<boolean> {
  const present = await db.readInline(
    { scope: 'all', customerId: null },
    `select to_regclass('public.case_basic_details') is not null
       and to_regclass('public.case_addresses') is not null as present`,
  );
  if (present[0]?.present !== true) return false;
  await db.ownerExec(`
    insert into case_basic_details (customer_id, case_id, gender, title, forename, surname, dob,
                                    phone_number, nin, nationality)
      select c.customer_id, c.id, 'female', 'Ms', s.first_name, s.last_name, s.dob,
             '07911 123' || lpad((c.id % 1000)::text, 3, '0'), 'AB123456C', 'GBR'
        from cases c join subjects s on s.customer_id = c.customer_id and s.id = c.subject_id;

    insert into case_addresses (customer_id, case_id, country, line_one, line_one_dbs, town,
                                postcode, from_date, to_date, current, source)
      select c.customer_id, c.id, 'GBR',
             case n when 0 then 'Flat 2, The Old Mill' else (1 + c.id % 90) || ' High Street' end,
             case n when 0 then 'Flat 2 The Old Mill' else '' end,
             (array['York', 'Leeds', 'Bristol'])[n + 1],
             (array['YO1 7HH', 'LS1 4AP', 'BS1 5TR'])[n + 1],
             current_date - (array[730, 1340, 2010])[n + 1],
             case n when 0 then null else current_date - (array[0, 915, 1340])[n + 1] end,
             n = 0,
             (array['idsp', 'OS', 'manual'])[n + 1]
        from cases c cross join generate_series(0, ${ADDRESSES_PER_CASE - 1}) n;
  `);
  return true;
}
