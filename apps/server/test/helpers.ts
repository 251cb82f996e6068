import { randomBytes } from 'node:crypto';
import { cpSync, readFileSync, rmSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { sql } from 'drizzle-orm';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import pg from 'pg';
import { inject } from 'vitest';
import { buildApp } from '../src/app.js';
import type { AppDeps } from '../src/app-deps.js';
import type { AppConfig } from '../src/config.js';
import {
  type Database,
  openPglite,
  openPgPool,
  pgDatabase,
  pgliteDatabase,
  servingUrl,
  type Tx,
} from '../src/db/connection.js';
import { createProductUser } from '../src/db/factories.js';
import { discoverModules } from '../src/modules/discover.js';
import { ManualClock } from '../src/platform/clock.js';
import type { JobKind } from '../src/platform/jobs.js';
import type { MailContext, Mailer, MailMessage } from '../src/platform/mailer.js';
import type { KestrelModule } from '../src/platform/module.js';
import type { SecretSource } from '../src/platform/server-secrets.js';

export * from '../src/db/factories.js';
export { ManualClock };

/** The password factories give users unless told otherwise. */
export const TEST_PASSWORD = 'kestrel-test-password';

function adminUrl(url: string, database: string): string {
  const u = new URL(url);
  u.pathname = `/${database}`;
  return u.toString();
}

/** An administrator and a view-only user of one customer: `admin@{domain}`, `viewer@{domain}`. */
export async function createAdminAndViewer(tx: Tx, customerId: number, domain = 'acme.test') {
  await createProductUser(tx, { customerId, username: `admin@${domain}`, roles: ['admin'] });
  await createProductUser(tx, { customerId, username: `viewer@${domain}`, roles: ['viewer'] });
}

/**
 * A fresh, migrated database for one test file: PGlite loaded from the template the global
 * setup dumped, or (DATABASE_URL set) a PostgreSQL database copied from the template database.
 * `drop()` closes it and, on PostgreSQL, drops the copy.
 */
export async function createTestDatabase(): Promise<{
  db: Database;
  drop: () => Promise<void>;
  /** Another connection to the same database, as a second server process would have. */
  twin: () => Database;
  /**
   * The same database served through the owner's connection (PostgreSQL: the superuser, as a
   * misconfigured server would); closed by `drop()`. PGlite: the database itself.
   */
  ownerServed: () => Database;
}> {
  const url = process.env.DATABASE_URL;
  if (url) {
    const template = inject('pgTemplate');
    const name = `kestrel_t_${process.pid}_${randomBytes(4).toString('hex')}`;
    const admin = new pg.Client({ connectionString: url });
    await admin.connect();
    for (let attempt = 0; ; attempt++) {
      try {
        await admin.query(`CREATE DATABASE ${name} TEMPLATE ${template}`);
        break;
      } catch (err) {
        // Two files copying the template at the same moment: retry shortly.
        if (attempt > 20) throw err;
        await new Promise((r) => setTimeout(r, 100 + Math.random() * 200));
      }
    }
    await admin.end();
    // openPgPool handles the error an idle client raises when the database is dropped at the end.
    // Requests are served through the least-privileged login, as the server does; the owner
    // (the superuser of DATABASE_URL) is for fixtures and assertions (TestApp.owner).
    const owner = adminUrl(url, name);
    const served = (size: number) =>
      pgDatabase(openPgPool(servingUrl(owner), size), openPgPool(owner, 2));
    const db = served(5);
    const extra: Database[] = [];
    return {
      db,
      twin: () => served(3),
      ownerServed: () => {
        const d = pgDatabase(openPgPool(owner, 1));
        extra.push(d);
        return d;
      },
      drop: async () => {
        for (const d of extra) await d.close();
        await db.close();
        const c = new pg.Client({ connectionString: url });
        await c.connect();
        await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
        await c.end();
      },
    };
  }
  // A copy of the template's data directory beside it, named after this process (the global
  // set-up removes the copies of runs that were killed). A tar (a run whose global set-up began
  // before the templates became directories) loads into memory as before.
  const template = inject('pgliteTemplate');
  const dir = statSync(template).isFile()
    ? null
    : join(dirname(template), `db-${randomBytes(4).toString('hex')}-${process.pid}`);
  if (dir) cpSync(template, dir, { recursive: true });
  const client = dir
    ? await openPglite(dir)
    : await openPglite(null, new Blob([readFileSync(template)]));
  const db = pgliteDatabase(client);
  // PGlite is one process's: a twin is a second wrapper (own caches) over the same instance.
  const twin = (): Database => ({ ...pgliteDatabase(client), close: async () => undefined });
  const drop = async () => {
    try {
      await db.close();
    } finally {
      if (dir) rmSync(dir, { recursive: true, force: true });
    }
  };
  return { db, drop, twin, ownerServed: () => db };
}

/** Collects sent emails in memory (tests read `sent`). */
export class MemoryMailer implements Mailer {
  readonly sent: MailMessage[] = [];
  async send(m: MailMessage, ctx: MailContext): Promise<void> {
    ctx.afterCommit(() => {
      this.sent.push(m);
    });
  }
}

export interface TestApp {
  app: FastifyInstance;
  db: Database;
  clock: ManualClock;
  /** Runs `fn` as the database owner (bypasses RLS): fixtures and assertions. */
  owner: <T>(fn: (tx: Tx) => Promise<T>) => Promise<T>;
  /** The database served through the owner's connection (see createTestDatabase). */
  ownerDatabase: () => Database;
  /** Runs the jobs that are due (emails) and waits until none is due or running. */
  settle: () => Promise<void>;
  /**
   * A second app on the same database with its own connections and caches, as another server
   * process would be (same clock and config). Closed with this one.
   */
  twin: () => Promise<FastifyInstance>;
  close: () => Promise<void>;
}

/**
 * Builds the app on a fresh database. Call once per file (beforeAll) and close in afterAll.
 * The clock starts at the real time and only moves when a test moves it.
 */
export async function buildTestApp(
  opts: {
    config?: Partial<AppConfig>;
    mailer?: Mailer;
    clock?: ManualClock;
    /** Extra modules (test-only routes) besides the discovered ones. */
    extraModules?: KestrelModule[];
    /** Extra job kinds (test-only) besides src/jobs'. */
    extraJobs?: JobKind<unknown, AppDeps>[];
  } = {},
): Promise<TestApp> {
  const { db, drop, twin, ownerServed } = await createTestDatabase();
  const clock = opts.clock ?? new ManualClock(new Date());
  // no start-up catch-up run a minute after each start over a test's moved clock (a file that
  // tests it asks for it)
  const config = { sessionCacheMs: 5_000, startupCatchUp: false, ...opts.config };
  const app = await buildApp({
    db,
    clock,
    config,
    ...(opts.mailer ? { mailer: opts.mailer } : {}),
    ...(opts.extraModules ? { modules: [...(await discoverModules()), ...opts.extraModules] } : {}),
    ...(opts.extraJobs ? { extraJobs: opts.extraJobs } : {}),
  });
  await app.ready();
  const twins: { app: FastifyInstance; db: Database }[] = [];
  return {
    app,
    db,
    clock,
    owner: (fn) => db.ownerTransaction(fn),
    ownerDatabase: ownerServed,
    settle: () => app.deps.jobs.settle(),
    twin: async () => {
      const other = twin();
      const second = await buildApp({
        db: other,
        clock,
        config,
        ...(opts.extraJobs ? { extraJobs: opts.extraJobs } : {}),
      });
      await second.ready();
      twins.push({ app: second, db: other });
      return second;
    },
    close: async () => {
      for (const x of twins) {
        await x.app.close();
        await x.db.close();
      }
      await app.close();
      await drop();
    },
  };
}

/** A cookie jar for one browser: session cookie and CSRF token, kept up to date. */
export interface Client {
  cookie: string;
  csrf: string;
  /** Headers for an unsafe call: cookie and X-CSRFToken. */
  headers: Record<string, string>;
}

function sessionCookie(res: LightMyRequestResponse): string | null {
  const c = res.cookies.find((x) => x.name === 'kestrel_session');
  return c ? `kestrel_session=${c.value}` : null;
}

/** An anonymous client: check-session gives it a session and a CSRF token. */
export async function anonymous(app: FastifyInstance): Promise<Client> {
  const res = await app.inject({ method: 'GET', url: '/api/accounts/check-session/' });
  const cookie = sessionCookie(res) ?? '';
  const csrf = String(res.json().csrf_token);
  return { cookie, csrf, headers: { cookie, 'x-csrftoken': csrf } };
}

/**
 * Logs a user in through the API (check-session, then login with the CSRF header) and returns
 * the client's cookie and CSRF header. Throws when the login does not answer 200.
 */
export async function login(
  app: FastifyInstance,
  username: string,
  password = TEST_PASSWORD,
  totp?: string,
): Promise<Client> {
  const anon = await anonymous(app);
  const res = await app.inject({
    method: 'POST',
    url: '/api/accounts/login/',
    headers: anon.headers,
    payload: { username, password, ...(totp ? { totp } : {}) },
  });
  if (res.statusCode !== 200) throw new Error(`login ${username}: ${res.statusCode} ${res.body}`);
  const cookie = sessionCookie(res) ?? anon.cookie;
  const csrf = String(res.json().csrf_token);
  return { cookie, csrf, headers: { cookie, 'x-csrftoken': csrf } };
}

/** Applies a response's new session cookie / csrf token to a client (rotation). */
export function follow(client: Client, res: LightMyRequestResponse): Client {
  const cookie = sessionCookie(res) ?? client.cookie;
  let csrf = client.csrf;
  try {
    const body: unknown = res.json();
    if (
      body &&
      typeof body === 'object' &&
      'csrf_token' in body &&
      typeof body.csrf_token === 'string'
    ) {
      csrf = body.csrf_token;
    }
  } catch {
    // not JSON
  }
  return { cookie, csrf, headers: { cookie, 'x-csrftoken': csrf } };
}

/** A DBS enhanced provider configuration (the ops form of point 5), as operations save it. */
export const DBS_PROVIDER_CONFIGURATION = {
  forename: 'Pat',
  surname: 'Lee',
  email: 'pat@acme.test',
  manager_forename: 'Max',
  manager_surname: 'Doe',
  manager_email: 'max@acme.test',
  position: 'HR lead',
  id_verifier_username: 'verifier1',
  email_group: 'dbs@acme.test',
};

/**
 * The secrets this installation keeps in server_secrets (name → value), read as the owner: what
 * the simulators sign with and the server verifies with (never a constant of the source).
 */
export async function storedServerSecrets(
  t: Pick<TestApp, 'owner'>,
): Promise<Record<string, string>> {
  const rows = await t.owner((tx) =>
    tx.execute<{ name: string; value: string }>(sql`select name, value from server_secrets`),
  );
  return Object.fromEntries(rows.map((r) => [r.name, r.value]));
}

/**
 * Secrets for code tested without an app or database: each name gets its own random secret, the
 * same on every read (as an installation's). With an app, use `app.deps.secrets`.
 */
export function randomSecrets(): SecretSource {
  const made = new Map<string, string>();
  return {
    get(name) {
      const value = made.get(name) ?? randomBytes(32).toString('hex');
      made.set(name, value);
      return value;
    },
  };
}
