import type { Database } from '../src/db/connection.js';
import { CASE_ROWS, CASE_TENANTS, LOGIN_TENANTS } from './seed.js';

/** What the case scenarios need, or why they cannot run. */
export type CaseSeed =
  | { available: false; reason: string }
  | {
      available: true;
      /** A state for the filtered page. */
      state: string;
      /** A free-text term matching about 2% of a tenant's subjects. */
      search: string;
      /** Open (not archived) case ids of each logged-in tenant, for the detail scenario. */
      detailIds: Record<string, number[]>;
    };

const SUBJECTS_PER_TENANT = CASE_ROWS / CASE_TENANTS / 2;
const PROCESSES_PER_TENANT = 4;
const ACTIVITIES_PER_CASE = 3;

const FIRST_NAMES = [
  'Alice',
  'Ben',
  'Chloe',
  'Daniel',
  'Ella',
  'Finn',
  'Grace',
  'Harry',
  'Isla',
  'Jack',
  'Katie',
  'Leo',
  'Mia',
  'Noah',
  'Olivia',
  'Oscar',
  'Poppy',
  'Quinn',
  'Ruby',
  'Sam',
  'Tess',
  'Umar',
  'Violet',
  'William',
  'Xena',
  'Yusuf',
  'Zara',
  'Amir',
  'Bea',
  'Callum',
];
const LAST_NAMES = [
  'Smith',
  'Jones',
  'Taylor',
  'Brown',
  'Williams',
  'Wilson',
  'Johnson',
  'Davies',
  'Patel',
  'Wright',
  'Walker',
  'Robinson',
  'Thompson',
  'White',
  'Hughes',
  'Edwards',
  'Green',
  'Hall',
  'Wood',
  'Harris',
  'Lewis',
  'Martin',
  'Jackson',
  'Clarke',
  'Clark',
  'Turner',
  'Hill',
  'Scott',
  'Cooper',
  'Morris',
  'Ward',
  'Moore',
  'King',
  'Watson',
  'Baker',
  'Harrison',
  'Morgan',
  'Young',
  'Allen',
  'Mitchell',
  'Anderson',
  'Lee',
  'Bell',
  'Parker',
  'Davis',
  'Hartley',
  'Kaur',
  'Khan',
  'Evans',
  'Roberts',
];
const sqlArray = (names: string[]) => `array[${names.map((n) => `'${n}'`).join(', ')}]`;

/**
 * 200,000 cases over 200 tenants (1,000 each, interleaved in time as real inserts would be),
 * 500 subjects per tenant with two cases each, four processes with three requirements, three
 * activities per case and an active flag on 2% of cases, all with set-based SQL.
 */
export async function seedCases(db: Database, customerIds: number[]): Promise<CaseSeed> {
  const present = await db.readInline(
    { scope: 'all', customerId: null },
    `select to_regclass('public.cases') is not null and to_regclass('public.processes') is not null
       and to_regclass('public.case_activities') is not null as present`,
  );
  if (present[0]?.present !== true) {
    return { available: false, reason: 'the cases module (table cases) does not exist yet' };
  }
  const T = CASE_TENANTS;
  // Tenant n (0-based) owns subjects s with (s - 1) % T = n and cases g with (g - 1) % T = n;
  // k = (g - 1) / T is the case's number within its tenant (its age order).
  await db.ownerExec(`
    create temp table bench_tenants as
      select id, (row_number() over (order by id) - 1)::int as n from customers;
    delete from bench_tenants where n >= ${T};

    insert into processes (customer_id, id, name, description)
      select t.id, t.n * ${PROCESSES_PER_TENANT} + p + 1, 'Process ' || (p + 1), 'Bench process'
        from bench_tenants t cross join generate_series(0, ${PROCESSES_PER_TENANT - 1}) p;
    insert into process_requirements (customer_id, process_id, activity_type_id, position)
      select pr.customer_id, pr.id, a.id, a.pos
        from processes pr
        cross join (select id, (row_number() over (order by id) - 1)::int as pos
                      from activity_types order by id limit ${ACTIVITIES_PER_CASE}) a;

    -- one login per person (subjects link to it), then each customer's record of the person
    insert into subject_users (id, email, first_name, last_name, terms_agreed_at)
      select s, 'person.' || s || '@example.test', 'Person', 'Number ' || s, now()
        from generate_series(1, ${SUBJECTS_PER_TENANT * T}) s;

    insert into subjects (customer_id, id, user_id, email, first_name, last_name, dob,
                          phone_number)
      select t.id, s, s, lower(x.fn || '.' || x.ln || '.' || s || '@example.test'), x.fn, x.ln,
             date '1960-01-01' + (s % 15000), '+447700900' || lpad((s % 1000)::text, 3, '0')
        from generate_series(1, ${SUBJECTS_PER_TENANT * T}) s
        join bench_tenants t on t.n = (s - 1) % ${T}
        cross join lateral (
          select (${sqlArray(FIRST_NAMES)})[1 + ((s - 1) / ${T}) % ${FIRST_NAMES.length}] as fn,
                 (${sqlArray(LAST_NAMES)})[1 + ((s - 1) / ${T} / 3) % ${LAST_NAMES.length}] as ln
        ) x;

    insert into cases (customer_id, id, process_id, subject_id, state, decision, created_at,
                       updated_at, completed_at, archived_at)
      select t.id, g, t.n * ${PROCESSES_PER_TENANT} + k % ${PROCESSES_PER_TENANT} + 1,
             t.n + 1 + ${T} * (k % ${SUBJECTS_PER_TENANT}),
             st.state,
             case when st.state = 'complete' then 'satisfactory' end,
             c.at, c.at + interval '1 day',
             case when st.state = 'complete' then c.at + interval '10 days' end,
             case when st.state in ('complete', 'cancelled') and k % 4 = 0
                  then c.at + interval '20 days' end
        from generate_series(1, ${CASE_ROWS}) g
        join bench_tenants t on t.n = (g - 1) % ${T}
        cross join lateral (select (g - 1) / ${T} as k) kk
        cross join lateral (
          select (array['complete', 'complete', 'cancelled', 'in-progress', 'in-progress',
                        'awaiting-subject', 'awaiting-subject', 'pending',
                        'pending-case-decision', 'in-progress'])[1 + (k * 7) % 10] as state
        ) st
        cross join lateral (
          select now() - make_interval(secs => (${CASE_ROWS} - g) * 150) as at
        ) c;

    insert into case_activities (customer_id, id, case_id, activity_type_id, state, position,
                                 created_at, updated_at, completed_at)
      select c.customer_id, (c.id - 1) * ${ACTIVITIES_PER_CASE} + r.position + 1, c.id,
             r.activity_type_id,
             case c.state
               when 'complete' then 'ca-complete'
               when 'cancelled' then 'ca-cancelled'
               when 'pending-case-decision' then 'ca-complete'
               when 'awaiting-subject' then 'ca-awaiting-subject'
               when 'pending' then 'ca-pending'
               else (array['ca-complete', 'ca-in-progress', 'ca-awaiting-ops'])[1 + r.position]
             end,
             r.position, c.created_at, c.updated_at, c.completed_at
        from cases c
        join process_requirements r
          on r.customer_id = c.customer_id and r.process_id = c.process_id;

    insert into flags (customer_id, case_id, subject_id, kind, message, created_at)
      select customer_id, id, subject_id, 'rule', 'Bench flag', created_at + interval '2 days'
        from cases where ((id - 1) / ${T}) % 50 = 7;

    select setval(pg_get_serial_sequence('processes', 'id'), (select max(id) from processes));
    select setval(pg_get_serial_sequence('subject_users', 'id'), (select max(id) from subject_users));
    select setval(pg_get_serial_sequence('subjects', 'id'), (select max(id) from subjects));
    select setval(pg_get_serial_sequence('cases', 'id'), (select max(id) from cases));
    select setval(pg_get_serial_sequence('case_activities', 'id'),
                  (select max(id) from case_activities));
    drop table bench_tenants;
  `);

  return caseScenarios(await detailIdsOf(db, customerIds));
}

/** What the case scenarios use of the loaded data: a state, a search term and the detail ids. */
export function caseScenarios(detailIds: Record<string, number[]>): CaseSeed {
  return { available: true, state: 'in-progress', search: 'hartley', detailIds };
}

/** Open (not archived) case ids of each logged-in tenant, for the detail scenario. */
export async function detailIdsOf(
  db: Database,
  customerIds: number[],
): Promise<Record<string, number[]>> {
  const detailIds: Record<string, number[]> = {};
  for (const customerId of customerIds.slice(0, LOGIN_TENANTS)) {
    const rows = await db.readInline(
      { scope: 'tenant', customerId },
      `select id from cases where archived_at is null order by id limit 40`,
    );
    detailIds[String(customerId)] = rows.map((r) => Number(r.id));
  }
  return detailIds;
}
