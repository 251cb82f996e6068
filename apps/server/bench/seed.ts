import type { Database } from '../src/db/connection.js';
import { createProductUser } from '../src/db/factories.js';

/** Sizes of the bench data set (issue 2: audit list; issue 5: cases). */
export const AUDIT_TENANTS = 100;
export const AUDIT_ROWS = 100_000;
export const CASE_TENANTS = 200;
export const CASE_ROWS = 200_000;
/** Tenants that get a logged-in admin; the load is spread over their sessions. */
export const LOGIN_TENANTS = 8;
export const BENCH_PASSWORD = 'kestrel-bench-password-2026';

export interface BenchUser {
  username: string;
  customerId: number;
}

/**
 * The customers, in id order (the first AUDIT_TENANTS carry the audit rows, all CASE_TENANTS the
 * cases). Rows go in with set-based SQL (generate_series), never through the API.
 */
export async function seedPlatform(db: Database): Promise<{ customerIds: number[] }> {
  const tenants = Math.max(AUDIT_TENANTS, CASE_TENANTS);
  await db.ownerExec(`
    insert into customers (name)
      select 'Bench customer ' || lpad(g::text, 3, '0') from generate_series(1, ${tenants}) g;
    insert into customer_activity_types (customer_id, activity_type_id)
      select c.id, a.id from customers c cross join activity_types a;
    insert into audit_actions (customer_id, actor_type, actor_id, actor_name, verb, content_type,
                               object_id, object_repr, changes, ip, request_id, created_at)
      select c.id, 'ProductUser', null, 'Bench actor ' || (g % 7),
             (array['created', 'updated', 'deleted'])[1 + g % 3], 'audit.auditaction',
             (g / ${AUDIT_TENANTS})::text, 'Object ' || (g / ${AUDIT_TENANTS}),
             jsonb_build_object('name', jsonb_build_array('old ' || g, 'new ' || g)),
             '127.0.0.1', 'bench-' || g,
             now() - make_interval(secs => ${AUDIT_ROWS} - g)
        from generate_series(0, ${AUDIT_ROWS - 1}) g
        join (select id, (row_number() over (order by id) - 1)::int as n from customers) c
          on c.n = g % ${AUDIT_TENANTS};
  `);
  const rows = await db.readInline(
    { scope: 'all', customerId: null },
    'select id from customers order by id',
  );
  const ids = rows.map((r) => Number(r.id));
  if (ids.length !== tenants) throw new Error(`expected ${tenants} customers, got ${ids.length}`);
  return { customerIds: ids };
}

/** The bench administrator of a customer. */
export const benchAdmin = (customerId: number): BenchUser => ({
  username: `bench-admin-${customerId}@bench.test`,
  customerId,
});

/** One administrator in each of the first LOGIN_TENANTS customers (through the factories). */
export async function seedUsers(db: Database, customerIds: number[]): Promise<BenchUser[]> {
  const users: BenchUser[] = [];
  await db.ownerTransaction(async (tx) => {
    for (const customerId of customerIds.slice(0, LOGIN_TENANTS)) {
      const user = benchAdmin(customerId);
      await createProductUser(tx, {
        customerId,
        username: user.username,
        password: BENCH_PASSWORD,
        roles: ['admin'],
      });
      users.push(user);
    }
  });
  return users;
}

export async function analyze(db: Database): Promise<void> {
  // The steady state of a live database: autovacuum sets the visibility map of insert-mostly
  // tables, so counts can be answered from indexes (index-only scans).
  await db.ownerExec('vacuum analyze');
  // Write the bulk load's dirty pages now rather than during the measurements.
  await db.ownerExec('checkpoint');
}
