// @postgres: connections killed under load; the pool and LISTEN come back (a PostgreSQL-only part)

import { createServer, connect as netConnect, type Server, type Socket } from 'node:net';
import { DrizzleQueryError, inArray, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  anonymous,
  buildTestApp,
  type Client,
  createAdminAndViewer,
  createCustomer,
  createTestDatabase,
  login,
  type TestApp,
} from '../../test/helpers.js';
import { buildApp } from '../app.js';
import { discoverModules } from '../modules/discover.js';
import { subjects } from '../modules/subjects/subjects.table.js';
import { DATABASE_UNAVAILABLE } from '../platform/error-handler.js';
import {
  type Database,
  isDatabaseUnavailable,
  LISTENER_APPLICATION_NAME,
  openPgPool,
  pgDatabase,
} from './connection.js';

// A database connection lost under load (a failover, an administrator, a restart) must never end
// the process (vitest reports an unhandled 'error' event as a failure): the requests it hits
// answer 503 in the API's shape, the pool replaces the dead connections, the LISTEN connection
// comes back, and every write answered 2xx is in the database.
const PG_URL = process.env.DATABASE_URL;

const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** An error as node-postgres gives it for a backend ended by the server (SQLSTATE 57P01). */
function terminated(): Error {
  return Object.assign(new Error('terminating connection due to administrator command'), {
    code: '57P01',
    severity: 'FATAL',
  });
}

/** A port nothing listens on (ECONNREFUSED). */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const address = server.address();
  await new Promise((r) => server.close(r));
  if (!address || typeof address === 'string') throw new Error('no port');
  return address.port;
}

describe('which errors mean the database is unavailable', () => {
  it('a lost or refused connection, also wrapped by Drizzle; not what PostgreSQL refused', () => {
    const refused = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), {
      code: 'ECONNREFUSED',
    });
    for (const err of [
      terminated(),
      new DrizzleQueryError('select 1', [], terminated()),
      refused,
      new AggregateError([refused], 'connect failed'),
      new Error('Connection terminated unexpectedly'),
      new DrizzleQueryError('select 1', [], new Error('Connection terminated unexpectedly')),
      new Error('Client has encountered a connection error and is not queryable'),
      Object.assign(new Error('the database system is starting up'), { code: '57P03' }),
      Object.assign(new Error('the database system is shutting down'), { code: '57P03' }),
      Object.assign(new Error('connection failure'), { code: '08006' }),
      Object.assign(new Error('sorry, too many clients already'), { code: '53300' }),
    ]) {
      expect(isDatabaseUnavailable(err), err.message).toBe(true);
    }
    for (const err of [
      Object.assign(new Error('duplicate key value'), { code: '23505' }),
      new DrizzleQueryError('select 1', [], Object.assign(new Error('x'), { code: '22P02' })),
      Object.assign(new Error('division by zero'), { code: '22012' }),
      new Error('Nested database transaction'),
      'Connection terminated',
      null,
    ]) {
      expect(isDatabaseUnavailable(err)).toBe(false);
    }
  });
});

describe('a database that cannot be reached', () => {
  let app: FastifyInstance;
  let down: Database;
  let drop: () => Promise<void>;
  let visitor: Client;

  beforeAll(async () => {
    // The app starts on a working database (it needs one to start), then every call goes to
    // one nobody answers for (ECONNREFUSED), as when the server goes away.
    const test = await createTestDatabase();
    drop = test.drop;
    down = pgDatabase(openPgPool(`postgres://postgres@127.0.0.1:${await closedPort()}/kestrel`, 2));
    let current: Database = test.db;
    const db = new Proxy(test.db, { get: (_target, key) => Reflect.get(current, key) });
    app = await buildApp({
      db,
      modules: [
        ...(await discoverModules()),
        {
          name: 'probe',
          routes: async (a) => {
            a.get('/probe/lost', async () => {
              throw new DrizzleQueryError('select secret from t', [], terminated());
            });
            a.get('/probe/refused', async () => {
              throw Object.assign(new Error('duplicate key value violates "t_secret_key"'), {
                code: '23505',
              });
            });
          },
        },
      ],
    });
    await app.ready();
    visitor = await anonymous(app);
    current = down;
  });
  afterAll(async () => {
    await app?.close();
    await down?.close();
    await drop?.();
  });

  it('listening does not fail: the channel is listened to once the database is back', async () => {
    await expect(down.listen('fault_unreachable', () => undefined)).resolves.toBeUndefined();
  });

  it('answers 503 in the API shape, and /healthz says 503', async () => {
    const health = await app.inject({ method: 'GET', url: '/healthz' });
    expect(health.statusCode).toBe(503);
    expect(health.json()).toEqual({ status: 'unavailable' });
    // (an anonymous check-session needs no database: its CSRF token is stateless)
    for (const [url, payload] of [
      ['/api/accounts/login/', { username: 'a@acme.test', password: 'x' }],
      ['/api/accounts/password-reset/', { email: 'a@acme.test' }],
    ] as const) {
      const res = await app.inject({ method: 'POST', url, headers: visitor.headers, payload });
      expect(res.statusCode, url).toBe(503);
      expect(res.json()).toEqual({ detail: DATABASE_UNAVAILABLE });
    }
  });

  it('a lost connection is 503 with nothing of the query; any other database error stays 500', async () => {
    const lost = await app.inject({ method: 'GET', url: '/probe/lost' });
    expect(lost.statusCode).toBe(503);
    expect(lost.json()).toEqual({ detail: DATABASE_UNAVAILABLE });
    const refused = await app.inject({ method: 'GET', url: '/probe/refused' });
    expect(refused.statusCode).toBe(500);
    expect(refused.json()).toEqual({ detail: 'A server error occurred.' });
  });
});

/** An answer's status and body; a request that got no answer at all is status 0. */
interface Outcome {
  status: number;
  body: string;
}

/** Reads and writes (a subject per write) from 8 concurrent clients until stopped. */
function loadOn(
  call: (method: 'GET' | 'POST', path: string, payload?: object) => Promise<Outcome>,
) {
  const outcomes: Outcome[] = [];
  const acknowledged: number[] = [];
  let running = true;
  const worker = async (w: number) => {
    for (let i = 0; running; i++) {
      if (i % 2 === 0) {
        outcomes.push(await call('GET', '/api/subjects/?page_size=5'));
        continue;
      }
      const out = await call('POST', '/api/subjects/', {
        first_name: 'Fault',
        last_name: 'Test',
        email: `w${w}-${i}-${Math.random().toString(36).slice(2)}@fault.test`,
      });
      outcomes.push(out);
      if (out.status === 201) acknowledged.push(Number(JSON.parse(out.body).id));
    }
  };
  const workers = Array.from({ length: 8 }, (_, w) => worker(w));
  return {
    outcomes,
    acknowledged,
    async stop() {
      running = false;
      await Promise.all(workers);
    },
  };
}

/** Every answer 2xx or 503 with the generic body; at least one 503 (the fault was felt). */
function expectOnly2xxOr503(outcomes: Outcome[]): void {
  const statuses = outcomes.map((o) => o.status);
  expect(statuses.filter((s) => s !== 503 && (s < 200 || s >= 300))).toEqual([]);
  const unavailable = outcomes.filter((o) => o.status === 503);
  expect(unavailable.length).toBeGreaterThan(0);
  for (const o of unavailable) expect(JSON.parse(o.body)).toEqual({ detail: DATABASE_UNAVAILABLE });
}

describe.skipIf(!PG_URL)('connections lost under load (PostgreSQL)', () => {
  let t: TestApp;
  let superuser: pg.Client;
  let database: string;

  beforeAll(async () => {
    t = await buildTestApp();
    await t.owner(async (tx) => {
      const acme = (await createCustomer(tx, { name: 'Acme' })).id;
      await createAdminAndViewer(tx, acme);
    });
    const [row] = await t.owner((tx) => tx.execute(sql`select current_database() as name`));
    database = String(row?.name);
    // The administrator's own connection, to the server's default database (never terminated).
    superuser = new pg.Client({ connectionString: PG_URL });
    await superuser.connect();
  });
  afterAll(async () => {
    await superuser?.end();
    await t?.close();
  });

  /** Ends every backend of this test's database (only this one: others share the server). */
  async function terminateAll(): Promise<number> {
    // The victims are chosen first (materialized): in a WHERE clause PostgreSQL may call
    // pg_terminate_backend before the other conditions, on backends of every database.
    const { rows } = await superuser.query<{ ended: number }>(
      `with victims as materialized (
         select pid from pg_stat_activity where datname = $1 and pid <> pg_backend_pid())
       select count(*) filter (where pg_terminate_backend(pid, 2000))::int as ended from victims`,
      [database],
    );
    return rows[0]?.ended ?? 0;
  }

  /**
   * Waits (up to 5 s) for a listening connection on this test's database (of `app` if given):
   * its last query LISTEN, or named as the listener (whose last query may be the sessions' sync).
   */
  // The listener notices a lost connection at its next heartbeat and then reconnects: up to 20 s
  // on a loaded machine (CI ran it beside the browser suite at a load of 12).
  async function listening(app?: string): Promise<number> {
    for (let i = 0; i < 200; i++) {
      const { rows } = await superuser.query<{ n: number }>(
        `select count(*)::int as n from pg_stat_activity
          where datname = $1 and state = 'idle'
            and (query like 'LISTEN %' or application_name = $3)
            and ($2::text is null or application_name = $2)`,
        [database, app ?? null, LISTENER_APPLICATION_NAME],
      );
      if ((rows[0]?.n ?? 0) > 0) return rows[0]?.n ?? 0;
      await pause(100);
    }
    return 0;
  }

  /** Requests to a listening server (as a browser would), as customer admin `admin`. */
  function caller(base: string, admin: Client) {
    return async (method: 'GET' | 'POST', path: string, payload?: object): Promise<Outcome> => {
      try {
        const res = await fetch(`${base}${path}`, {
          method,
          headers: {
            ...admin.headers,
            ...(payload ? { 'content-type': 'application/json' } : {}),
          },
          ...(payload ? { body: JSON.stringify(payload) } : {}),
        });
        return { status: res.status, body: await res.text() };
      } catch (err) {
        return { status: 0, body: String(err) };
      }
    };
  }

  /** After a fault: everything answers 2xx at once, and every acknowledged write is stored. */
  async function expectRecovered(
    call: ReturnType<typeof caller>,
    acknowledged: number[],
  ): Promise<void> {
    const after = await Promise.all([
      ...Array.from({ length: 10 }, () => call('GET', '/api/subjects/?page_size=5')),
      ...Array.from({ length: 5 }, (_, i) =>
        call('POST', '/api/subjects/', {
          first_name: 'After',
          last_name: 'Fault',
          email: `after-${i}-${Math.random().toString(36).slice(2)}@fault.test`,
        }),
      ),
      call('GET', '/healthz'),
    ]);
    expect(after.map((o) => o.status)).toEqual([
      ...Array(10).fill(200),
      ...Array(5).fill(201),
      200,
    ]);
    expect(acknowledged.length).toBeGreaterThan(0);
    const stored = await t.owner((tx) =>
      tx.select({ id: subjects.id }).from(subjects).where(inArray(subjects.id, acknowledged)),
    );
    expect(stored.map((s) => s.id).sort()).toEqual([...acknowledged].sort());
  }

  it('pg_terminate_backend under load: survives, 503 meanwhile, then 2xx, no acknowledged write lost', async () => {
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    const address = t.app.server.address();
    if (!address || typeof address === 'string') throw new Error('not listening');
    const call = caller(`http://127.0.0.1:${address.port}`, await login(t.app, 'admin@acme.test'));
    const load = loadOn(call);
    let ended = 0;
    for (let round = 0; round < 4; round++) {
      await pause(300);
      ended += await terminateAll();
    }
    await pause(300);
    await load.stop();

    expect(ended).toBeGreaterThanOrEqual(4);
    expectOnly2xxOr503(load.outcomes);
    await expectRecovered(call, load.acknowledged);
    expect(await listening()).toBeGreaterThan(0);
  });

  it('a transaction whose failed statement was ignored is not reported as committed', async () => {
    const out = t.db.ownerTransaction(async (tx) => {
      await tx.execute(sql`select 1`);
      await tx.execute(sql`select 1 / 0`).catch(() => undefined);
      return 'done';
    });
    await expect(out).rejects.toThrow(/rolled back/);
  });

  it('a listen while its connection is being ended still takes effect', async () => {
    const heard: (string | null)[] = [];
    await t.db.listen('fault_first', () => undefined);
    await terminateAll();
    // The connection may or may not know yet that it is gone: either way this succeeds.
    await t.db.listen('fault_second', (p) => heard.push(p));
    await listening();
    for (let i = 0; i < 50 && !heard.includes('hello'); i++) {
      await t.db.notify('fault_second', 'hello').catch(() => undefined);
      await pause(100);
    }
    expect(heard).toContain('hello');
  });

  it('the database away for a while (a restart, through a proxy): 503, then serves by itself', async () => {
    // A TCP proxy in front of PostgreSQL: cutting it ends every connection and refuses new
    // ones, as a restart does, without touching the shared server.
    const upstream = new URL(PG_URL ?? '');
    const sockets = new Set<Socket>();
    let proxy: Server | null = null;
    const open = async (port: number) => {
      const server = createServer((down) => {
        const up = netConnect(Number(upstream.port || 5432), upstream.hostname);
        for (const s of [down, up]) {
          sockets.add(s);
          s.on('error', () => undefined);
          s.on('close', () => {
            sockets.delete(s);
            down.destroy();
            up.destroy();
          });
        }
        down.pipe(up);
        up.pipe(down);
      });
      await new Promise<void>((r) => server.listen(port, '127.0.0.1', r));
      proxy = server;
      const a = server.address();
      if (!a || typeof a === 'string') throw new Error('no port');
      return a.port;
    };
    const cut = async () => {
      const server = proxy;
      proxy = null;
      for (const s of sockets) s.destroy();
      if (server) await new Promise((r) => server.close(r));
    };

    const port = await open(0);
    const viaProxy = new URL(PG_URL ?? '');
    viaProxy.host = `127.0.0.1:${port}`;
    viaProxy.pathname = `/${database}`;
    viaProxy.searchParams.set('application_name', 'kestrel_fault_proxy');
    const db = pgDatabase(openPgPool(viaProxy.toString(), 5));
    const app = await buildApp({ db, config: { sessionCacheMs: 5_000 } });
    try {
      await app.listen({ port: 0, host: '127.0.0.1' });
      const address = app.server.address();
      if (!address || typeof address === 'string') throw new Error('not listening');
      const call = caller(`http://127.0.0.1:${address.port}`, await login(app, 'admin@acme.test'));
      const load = loadOn(call);
      await pause(300);
      await cut();
      await pause(1500);
      expect((await call('GET', '/healthz')).status).toBe(503);
      await open(port);
      await pause(300);
      await load.stop();

      expectOnly2xxOr503(load.outcomes);
      await expectRecovered(call, load.acknowledged);
      // The LISTEN connection came back through the proxy.
      expect(await listening('kestrel_fault_proxy')).toBeGreaterThan(0);
    } finally {
      await app.close();
      await db.close();
      await cut();
    }
  });
});
