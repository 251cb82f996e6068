import { sql } from 'drizzle-orm';
import { defaultConfig } from '../config.js';
import { jobKinds } from '../jobs/index.js';
import { discoverModules } from '../modules/discover.js';
import { type Clock, systemClock } from '../platform/clock.js';
import { createQueues } from '../platform/jobs.js';
import type { DemoSeedContext } from '../platform/module.js';
import type { DocumentStorage } from '../providers/storage/provider.js';
import { createStorage } from '../providers/storage/select.js';
import { type Database, SEED_ROLE, type Tx } from './connection.js';
import { createCustomer, createProductUser, createRole, createSubjectUser } from './factories.js';

export const DEMO_PASSWORD = 'kestrel-demo-2026';
export const DEMO_TOTP_SECRET = 'JBSWY3DPEHPK3PXP';

/** The demo logins, printed at start and listed in the README. */
export const DEMO_LOGINS = [
  ['ops@kestrel.test', 'operations administrator'],
  ['admin@acme.test', 'administrator of customer Acme Care Ltd'],
  [
    'viewer@acme.test',
    'Acme Care Ltd staff who may view cases and subjects but not add or archive',
  ],
  ['mfa@acme.test', `Acme Care Ltd administrator with TOTP on, secret ${DEMO_TOTP_SECRET}`],
  ['admin@northgate.test', 'administrator of customer Northgate Council (demo mode)'],
  [
    'north.site@acme.test',
    "Acme Care Ltd coordinator limited to the segment 'North site': sees only its cases",
  ],
  ['subject@example.test', 'a subject of Acme Care Ltd, profile complete'],
] as const;

/** Demo people invited but without an account yet (printed at start after the logins). */
export const DEMO_INVITED = [
  [
    'jordan.lee@example.test',
    'invited by Acme Care Ltd, no account yet: claim it from the invitation in the outbox (ops@kestrel.test, /ops/outbox)',
  ],
] as const;

/**
 * The seed writes every tenant's rows at start, an owner-side action like the migrations: the
 * owner's transaction as the seed role (kestrel_seed, whose policies allow every row; an owner
 * that is no superuser meets forced row-level security on its own), never the cross-tenant role
 * requests and jobs run as, which may write only what they write (security.ts, decision 011).
 */
function seedTransaction<T>(db: Database, fn: (tx: Tx) => Promise<T>): Promise<T> {
  return db.ownerTransaction(async (tx) => {
    await tx.execute(sql.raw(`SET LOCAL ROLE ${SEED_ROLE}`));
    return fn(tx);
  });
}

/** True when the database holds no customer yet (first start). */
export async function isEmpty(db: Database): Promise<boolean> {
  const rows = await seedTransaction(db, (tx) =>
    tx.execute<{ n: number }>(sql`select count(*)::int as n from customers`),
  );
  return Number(rows[0]?.n ?? 0) === 0;
}

/**
 * Loads the demo data with the same factories the tests use, then every module's `seedDemo`.
 * Returns false when data exists already (only the first start seeds). `storage` is where the
 * demo documents' files go: the server's store (main.ts, cli.ts pass the configuration's); by
 * default the default configuration's (a temporary folder, as a test app's).
 */
export async function seedDemo(
  db: Database,
  clock: Clock = systemClock,
  storage?: DocumentStorage,
): Promise<boolean> {
  if (!(await isEmpty(db))) return false;
  const documents = storage ?? createStorage(defaultConfig.storage);
  const modules = await discoverModules();
  // The demo's emails (the invitation in the outbox) are jobs enqueued by the seed, as any
  // request enqueues them: a job sent to a queue not made yet is dropped (pg-boss inserts it
  // only into an existing queue), and on a first start the server makes its queues after this.
  await createQueues(db, jobKinds);
  await seedTransaction(db, async (tx) => {
    const password = DEMO_PASSWORD;
    const acme = await createCustomer(tx, {
      name: 'Acme Care Ltd',
      entitlements: ['regportals', 'cycles', 'subject_dedup'],
    });
    const northgate = await createCustomer(tx, { name: 'Northgate Council', demoMode: true });
    const acmeAdmin = await createRole(tx, {
      customerId: acme.id,
      name: 'admin',
      permissions: 'admin',
    });
    const acmeViewer = await createRole(tx, {
      customerId: acme.id,
      name: 'viewer',
      permissions: 'viewer',
    });
    const ops = await createProductUser(tx, {
      customerId: null,
      username: 'ops@kestrel.test',
      firstName: 'Olivia',
      lastName: 'Ops',
      jobTitle: 'Operations administrator',
      password,
      roles: ['ops'],
    });
    const admin = await createProductUser(tx, {
      customerId: acme.id,
      username: 'admin@acme.test',
      firstName: 'Alex',
      lastName: 'Admin',
      jobTitle: 'HR manager',
      password,
      roles: [acmeAdmin.id],
    });
    const viewer = await createProductUser(tx, {
      customerId: acme.id,
      username: 'viewer@acme.test',
      firstName: 'Vic',
      lastName: 'Viewer',
      jobTitle: 'HR assistant',
      password,
      roles: [acmeViewer.id],
    });
    const mfa = await createProductUser(tx, {
      customerId: acme.id,
      username: 'mfa@acme.test',
      firstName: 'Morgan',
      lastName: 'Factor',
      jobTitle: 'Compliance lead',
      password,
      roles: [acmeAdmin.id],
      totpSecret: DEMO_TOTP_SECRET,
    });
    const north = await createProductUser(tx, {
      customerId: northgate.id,
      username: 'admin@northgate.test',
      firstName: 'Nadia',
      lastName: 'North',
      jobTitle: 'Licensing officer',
      password,
      roles: ['admin'],
    });
    const subject = await createSubjectUser(tx, {
      customerId: acme.id,
      email: 'subject@example.test',
      firstName: 'Sam',
      lastName: 'Taylor',
      dob: '1990-04-12',
      password,
      // Added before the case the workspace seed opens for them (two days ago).
      createdAt: new Date(clock.now().getTime() - 30 * 86_400_000),
    });
    const ctx: DemoSeedContext = {
      tx,
      clock,
      customers: { acme: acme.id, northgate: northgate.id },
      users: Object.fromEntries(
        [ops, admin, viewer, mfa, north].map((u) => [
          u.username,
          { id: u.id, customerId: u.customerId },
        ]),
      ),
      subjects: { [subject.email]: { id: subject.id, customerId: subject.customerId } },
      storage: documents,
    };
    const ordered = [...modules].sort((a, b) => (a.seedOrder ?? 100) - (b.seedOrder ?? 100));
    for (const m of ordered) if (m.seedDemo) await m.seedDemo(ctx);
  });
  return true;
}
