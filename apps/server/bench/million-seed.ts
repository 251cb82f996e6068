// The data set of `npm run bench -- --only=million` (issue 28): N cases across 1,000 customers,
// one large customer with a twentieth of them and the others sharing the rest evenly, with
// subjects (one per two cases), processes, three activities per case (an in-progress case's
// third waits on operations or, one case in two, on the customer: the outstanding activities), a
// document per two cases,
// an audit row per case and an active flag on 2% of cases. Set-based SQL only (generate_series),
// never the API.
import type { Database } from '../src/db/connection.js';

export const MILLION_CUSTOMERS = 1_000;
/** One case in LARGE_EVERY belongs to the large customer (the first). */
const LARGE_EVERY = 20;
const PROCESSES_PER_CUSTOMER = 4;
const ACTIVITIES_PER_CASE = 3;

const FIRST = ['Alice', 'Ben', 'Chloe', 'Daniel', 'Ella', 'Finn', 'Grace', 'Harry', 'Isla', 'Jack'];
const LAST = [
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
  'Carter',
  'Price',
];
const arr = (names: string[]) => `array[${names.map((n) => `'${n}'`).join(', ')}]`;

/** What the scenarios need of a loaded data set. */
export interface MillionSeed {
  cases: number;
  large: { customerId: number; cases: number };
  small: { customerId: number; cases: number };
}

/** The data set this database already holds (a finished load of `cases` cases), or null. */
export async function loadedMillion(db: Database, cases: number): Promise<MillionSeed | null> {
  const rows = await db
    .ownerQuery('select cases, large_id, large_cases, small_id, small_cases from bench_million')
    .catch(() => ({ rows: [] as Record<string, unknown>[] }));
  const r = rows.rows[0];
  if (!r || Number(r.cases) !== cases) return null;
  return {
    cases,
    large: { customerId: Number(r.large_id), cases: Number(r.large_cases) },
    small: { customerId: Number(r.small_id), cases: Number(r.small_cases) },
  };
}

/**
 * Loads `cases` cases into a migrated, empty database. `step` reports each part (with its time,
 * by the caller). Ends with a `bench_million` row naming what it loaded, so a later run reuses it.
 */
export async function seedMillion(
  db: Database,
  cases: number,
  step: (label: string, fn: () => Promise<void>) => Promise<void>,
): Promise<MillionSeed> {
  const T = MILLION_CUSTOMERS;
  const N = cases;
  await step('customers and processes', () =>
    db.ownerExec(`
      insert into customers (name)
        select 'Million customer ' || lpad(g::text, 4, '0') from generate_series(1, ${T}) g;
      insert into customer_activity_types (customer_id, activity_type_id)
        select c.id, a.id from customers c cross join activity_types a;
      create unlogged table bench_million_tenants as
        select id, (row_number() over (order by id) - 1)::int as n from customers;
      insert into processes (customer_id, id, name, description)
        select t.id, t.n * ${PROCESSES_PER_CUSTOMER} + p + 1, 'Process ' || (p + 1), 'Bench process'
          from bench_million_tenants t cross join generate_series(0, ${PROCESSES_PER_CUSTOMER - 1}) p;
      insert into process_requirements (customer_id, process_id, activity_type_id, position)
        select pr.customer_id, pr.id, a.id, a.pos
          from processes pr
          cross join (select id, (row_number() over (order by id) - 1)::int as pos
                        from activity_types order by id limit ${ACTIVITIES_PER_CASE}) a;
      -- case g: its customer n (0 the large one: every ${LARGE_EVERY}th case) and its number k
      -- within the customer (age order); subjects: one per two cases of a customer
      create unlogged table bench_million_cases as
        select g, x.n, x.k, (x.k / 2) as sk
          from generate_series(1, ${N}) g
          cross join lateral (
            select case when g % ${LARGE_EVERY} = 0 then 0
                        else 1 + (g - 1 - g / ${LARGE_EVERY}) % ${T - 1} end as n,
                   case when g % ${LARGE_EVERY} = 0 then g / ${LARGE_EVERY} - 1
                        else (g - 1 - g / ${LARGE_EVERY}) / ${T - 1} end as k
          ) x;
      create unlogged table bench_million_subjects as
        select row_number() over (order by n, sk)::int as sid, n, sk
          from bench_million_cases where k % 2 = 0;
    `),
  );
  await step('subjects', () =>
    db.ownerExec(`
      insert into subject_users (id, email, first_name, last_name, terms_agreed_at)
        select sid, 'person.' || sid || '@example.test', 'Person', 'Number ' || sid, now()
          from bench_million_subjects;
      insert into subjects (customer_id, id, user_id, email, first_name, last_name, dob,
                            phone_number)
        select t.id, s.sid, s.sid, lower(x.fn || '.' || x.ln || '.' || s.sid || '@example.test'),
               x.fn, x.ln, date '1960-01-01' + (s.sid % 15000),
               '+447700900' || lpad((s.sid % 1000)::text, 3, '0')
          from bench_million_subjects s
          join bench_million_tenants t on t.n = s.n
          cross join lateral (
            select (${arr(FIRST)})[1 + s.sk % ${FIRST.length}] as fn,
                   (${arr(LAST)})[1 + (s.sk / 7) % ${LAST.length}] as ln
          ) x;
    `),
  );
  await step('cases', () =>
    db.ownerExec(`
      insert into cases (customer_id, id, process_id, subject_id, state, decision, created_at,
                         updated_at, completed_at, archived_at)
        select t.id, c.g, t.n * ${PROCESSES_PER_CUSTOMER} + c.k % ${PROCESSES_PER_CUSTOMER} + 1,
               s.sid, st.state,
               case when st.state = 'complete' then 'satisfactory' end,
               a.at, a.at + interval '1 day',
               case when st.state = 'complete' then a.at + interval '10 days' end,
               case when st.state in ('complete', 'cancelled') and c.k % 4 = 0
                    then a.at + interval '20 days' end
          from bench_million_cases c
          join bench_million_tenants t on t.n = c.n
          join bench_million_subjects s on s.n = c.n and s.sk = c.sk
          cross join lateral (
            select (array['complete', 'complete', 'cancelled', 'in-progress', 'in-progress',
                          'awaiting-subject', 'awaiting-subject', 'pending',
                          'pending-case-decision', 'in-progress'])[1 + (c.k * 7) % 10] as state
          ) st
          cross join lateral (select now() - make_interval(secs => (${N} - c.g) * 30) as at) a;
    `),
  );
  await step('case activities', () =>
    db.ownerExec(`
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
                 -- an in-progress case's third check: with operations (half), or the
                 -- customer's turn (outstanding activities: a quarter each)
                 else (array['ca-complete', 'ca-in-progress',
                             (array['ca-awaiting-ops', 'ca-awaiting-agent', 'ca-awaiting-ops',
                                    'ca-pending-activity-decision'])[1 + (c.id + c.id / 20) % 4]])[1 + r.position]
               end,
               r.position, c.created_at, c.updated_at, c.completed_at
          from cases c
          join process_requirements r
            on r.customer_id = c.customer_id and r.process_id = c.process_id;
    `),
  );
  await step('documents, flags and audit rows', () =>
    db.ownerExec(`
      insert into case_documents (customer_id, case_id, document_type, pages, uploaded_by_type,
                                  created_at, updated_at)
        select customer_id, id, 'passport', '[]'::jsonb, 'ProductUser', created_at, created_at
          from cases where id % 2 = 0;
      insert into flags (customer_id, case_id, subject_id, kind, message, created_at)
        select customer_id, id, subject_id, 'rule', 'Bench flag', created_at + interval '2 days'
          from cases where id % 50 = 7;
      insert into audit_actions (customer_id, actor_type, actor_id, actor_name, verb,
                                 content_type, object_id, object_repr, changes, ip, request_id,
                                 created_at)
        select customer_id, 'ProductUser', null, 'Bench actor ' || (id % 7),
               (array['created', 'updated', 'deleted'])[1 + id % 3], 'cases.case', id::text,
               'Case ' || id, jsonb_build_object('state', jsonb_build_array('pending', state)),
               '127.0.0.1', 'bench-' || id, created_at
          from cases;
    `),
  );
  await step('sequences set, work tables dropped', () =>
    db.ownerExec(`
      select setval(pg_get_serial_sequence('processes', 'id'), (select max(id) from processes));
      select setval(pg_get_serial_sequence('subject_users', 'id'),
                    (select max(id) from subject_users));
      select setval(pg_get_serial_sequence('subjects', 'id'), (select max(id) from subjects));
      select setval(pg_get_serial_sequence('cases', 'id'), (select max(id) from cases));
      select setval(pg_get_serial_sequence('case_activities', 'id'),
                    (select max(id) from case_activities));
      drop table bench_million_cases, bench_million_subjects;
    `),
  );
  const { rows } = await db.ownerQuery(
    `select t.id, t.n, (select count(*) from cases c where c.customer_id = t.id) as cases
       from bench_million_tenants t where t.n in (0, ${T - 1}) order by t.n`,
  );
  const [large, small] = rows;
  if (!large || !small) throw new Error('the large and small customers are missing');
  const seed: MillionSeed = {
    cases: N,
    large: { customerId: Number(large.id), cases: Number(large.cases) },
    small: { customerId: Number(small.id), cases: Number(small.cases) },
  };
  await db.ownerExec(`
    drop table bench_million_tenants;
    create table bench_million as
      select ${N} as cases, ${seed.large.customerId} as large_id, ${seed.large.cases} as large_cases,
             ${seed.small.customerId} as small_id, ${seed.small.cases} as small_cases;
  `);
  return seed;
}
