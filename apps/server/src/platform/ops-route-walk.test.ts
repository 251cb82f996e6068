import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { eq, getTableName, isNotNull, ne, sql } from 'drizzle-orm';
import type { AnyPgColumn, PgTable } from 'drizzle-orm/pg-core';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  anonymous,
  type Client,
  createCase,
  createProcess,
  createSubjectUser,
  createTestDatabase,
  login,
} from '../../test/helpers.js';
import { buildApp } from '../app.js';
import type { Database, Tx } from '../db/connection.js';
import { DEMO_PASSWORD, seedDemo } from '../db/seed.js';
import { caseActivities } from '../modules/activities/activities.table.js';
import { ADULT_FIRST } from '../modules/activities/activity-ops.service.js';
import {
  caseAddresses,
  caseBasicDetails,
  caseBirthDetails,
  caseDbsUpdateDetails,
  caseDrivingLicences,
  caseOtherNames,
  casePassports,
} from '../modules/case-data/case-data.table.js';
import { caseDocuments } from '../modules/case-documents/case-documents.table.js';
import { customers } from '../modules/customers/customers.table.js';
import { caseDbsDetails, caseRtwDetails } from '../modules/dbs-details/dbs-details.table.js';
import { caseOnlineIdv } from '../modules/online-idv/online-idv.table.js';
import { productPayments } from '../modules/payments/product-payments.table.js';
import { pricebooks } from '../modules/pricebooks/pricebooks.table.js';
import { outboxSms } from '../modules/reminders/reminders.table.js';
import { trustToRideBookings } from '../modules/trust-to-ride/trust-to-ride.table.js';
import { LocalDiskStorage } from '../providers/storage/local-disk.js';
import { systemClock } from './clock.js';
import { auditActions, securityRefusals } from './tables/audit.table.js';
import { maintenanceWindows } from './tables/maintenance.table.js';

// Every /api/ops/ route, walked from the app's route table on the demo world (issue 29): customer
// staff (an administrator holding every customer permission) and subjects get 403 on each, with
// the real ids of the administrator's own customer in the path, and nothing changes; anonymous
// callers get 401. A route added later under /api/ops/ is walked without anyone remembering to,
// and a new kind of path id fails the first test until this file knows where to find a real one.

let db: Database;
let drop: () => Promise<void>;
let app: FastifyInstance;
const dir = mkdtempSync(join(tmpdir(), 'kestrel-ops-walk-'));
let ops: Client;
let admin: Client;
let subject: Client;
let acme: number;

/** A real id per resource (the path before its first `:param`), Acme's where it has one. */
const ids: Record<string, string> = {};
/** The second path ids: a customer's user and pricebook. */
const nested: Record<string, string> = {};
/** Routes whose `:id` is of one kind of its resource: the adult-first check's served stages. */
const byRoute: Record<string, string> = {};
/** The outstanding activity whose claim the walk must leave alone. */
let queued: number;

const owner = <T>(fn: (tx: Tx) => Promise<T>): Promise<T> => db.ownerTransaction(fn);

/**
 * The first value of `column` in `table`, Acme's row when there is one; `make` adds a row first
 * when the demo has none.
 */
async function first(
  table: PgTable,
  column: AnyPgColumn,
  customer?: AnyPgColumn,
  make?: () => Promise<unknown>,
) {
  const pick = (where?: ReturnType<typeof eq>) =>
    db.ownerTransaction((tx) =>
      tx
        .select({ v: column })
        .from(table)
        .where(where)
        .orderBy(column)
        .limit(1)
        .then((rows) => rows[0]?.v),
    );
  const v = (customer ? await pick(eq(customer, acme)) : undefined) ?? (await pick());
  if ((v === undefined || v === null) && make) {
    await make();
    return first(table, column, customer);
  }
  if (v === undefined || v === null) throw new Error(`no row in ${getTableName(table)}`);
  return String(v);
}

/** A row of a case's details (all defaults) on the queued activity's case. */
async function onQueuedCase(table: typeof caseRtwDetails | typeof caseDbsDetails) {
  await owner(async (tx) => {
    const [row] = await tx
      .select({ caseId: caseActivities.caseId })
      .from(caseActivities)
      .where(eq(caseActivities.id, queued));
    await tx.insert(table).values({ customerId: acme, caseId: row?.caseId ?? 0 });
  });
}

async function inject(client: Client | null, method: string, url: string, payload?: unknown) {
  return app.inject({
    method: method as 'GET',
    url,
    ...(client ? { headers: client.headers } : {}),
    ...(payload === undefined ? {} : { payload: payload as object }),
  });
}

/** The first id an ops list answers (`results[0].id`). */
async function listed(url: string): Promise<string> {
  const res = await inject(ops, 'GET', url);
  const id: unknown = res.json().results?.[0]?.id;
  if (res.statusCode !== 200 || id === undefined) throw new Error(`${url}: ${res.body}`);
  return String(id);
}

beforeAll(async () => {
  ({ db, drop } = await createTestDatabase());
  expect(await seedDemo(db, systemClock, new LocalDiskStorage(dir))).toBe(true);
  app = await buildApp({
    db,
    storage: new LocalDiskStorage(dir),
    config: { startupCatchUp: false },
  });
  await app.ready();
  ops = await login(app, 'ops@kestrel.test', DEMO_PASSWORD);
  admin = await login(app, 'admin@acme.test', DEMO_PASSWORD);
  subject = await login(app, 'subject@example.test', DEMO_PASSWORD);
  acme = Number(
    await owner<number>(async (tx) => {
      const [row] = await tx
        .select({ id: customers.id })
        .from(customers)
        .where(eq(customers.name, 'Acme Care Ltd'));
      return row?.id ?? 0;
    }),
  );
  // what the demo has none of: a maintenance window, a text message, a refused call
  const day = 86_400_000;
  const at = (d: number) => new Date(Date.now() + d * day).toISOString();
  const window = await inject(ops, 'POST', '/api/ops/maintenance-windows/', {
    start: at(30),
    end: at(31),
    warning_start: at(29),
    reason: 'Walk',
  });
  expect(window.statusCode).toBe(201);
  await owner((tx) =>
    tx.insert(outboxSms).values({ to: '+447700900123', body: 'Your check is ready' }),
  );
  expect((await inject(admin, 'GET', '/api/ops/customers/')).statusCode).toBe(403);

  // an enhanced DBS check of Acme's waiting for operations, unclaimed (its stages are served)
  const waiting = await inject(ops, 'GET', `/api/ops/outstanding-activities/?customer=${acme}`);
  const activity = (
    waiting.json().results as { id: number; activity_type: string; claim?: unknown }[]
  ).find((x) => x.activity_type === 'dbs-enhanced' && !x.claim)?.id;
  if (activity === undefined) throw new Error(`no enhanced check waiting at Acme: ${waiting.body}`);
  queued = activity;
  Object.assign(ids, {
    customers: String(acme),
    'outstanding-activities': String(queued),
    'case-activities': String(queued),
    cases: await first(caseActivities, caseActivities.caseId, caseActivities.customerId),
    'case-basic-details': await first(
      caseBasicDetails,
      caseBasicDetails.caseId,
      caseBasicDetails.customerId,
    ),
    'case-birth-details': await first(
      caseBirthDetails,
      caseBirthDetails.caseId,
      caseBirthDetails.customerId,
    ),
    'case-passports': await first(casePassports, casePassports.caseId, casePassports.customerId),
    'case-driving-licences': await first(
      caseDrivingLicences,
      caseDrivingLicences.caseId,
      caseDrivingLicences.customerId,
    ),
    'case-dbs-update-details': await first(
      caseDbsUpdateDetails,
      caseDbsUpdateDetails.caseId,
      caseDbsUpdateDetails.customerId,
    ),
    'case-dbs-details': await first(
      caseDbsDetails,
      caseDbsDetails.caseId,
      caseDbsDetails.customerId,
      () => onQueuedCase(caseDbsDetails),
    ),
    'case-rtw-details': await first(
      caseRtwDetails,
      caseRtwDetails.caseId,
      caseRtwDetails.customerId,
      () => onQueuedCase(caseRtwDetails),
    ),
    'case-online-idv': await first(caseOnlineIdv, caseOnlineIdv.caseId, caseOnlineIdv.customerId),
    'case-other-names': await first(caseOtherNames, caseOtherNames.id, caseOtherNames.customerId),
    'case-addresses': await first(caseAddresses, caseAddresses.id, caseAddresses.customerId),
    'case-documents': await first(caseDocuments, caseDocuments.id, caseDocuments.customerId),
    'idv-case-activities': await listed('/api/ops/idv-case-activities/'),
    'audit-actions': await listed('/api/ops/audit-actions/'),
    'security-refusals': await listed('/api/ops/security-refusals/'),
    flags: await listed('/api/ops/flags/'),
    imports: await listed('/api/ops/imports/'),
    jobs: await listed('/api/ops/jobs/'),
    'maintenance-windows': await listed('/api/ops/maintenance-windows/'),
    outbox: await listed('/api/ops/outbox/'),
    'outbox-sms': await listed('/api/ops/outbox-sms/'),
    'portal-payments': await listed('/api/ops/portal-payments/'),
    'product-payments': await listed('/api/ops/product-payments/'),
    'payment-intents': await listed('/api/ops/payment-intents/'),
    payments: await listed('/api/ops/payments/'),
    'simulator/payments': await owner<string>(async (tx) => {
      const [row] = await tx
        .select({ id: productPayments.providerPaymentId })
        .from(productPayments)
        .where(isNotNull(productPayments.providerPaymentId))
        .limit(1);
      return row?.id ?? '';
    }),
    'trust-to-ride/sessions': await listed('/api/ops/trust-to-ride/sessions/'),
    'trust-to-ride/bookings': await first(
      trustToRideBookings,
      trustToRideBookings.id,
      trustToRideBookings.customerId,
    ),
  });
  // the demo has no adult-first check (the one kind whose stages are served): one at Acme
  byRoute['/api/ops/case-activities/:id/serviced-stage/'] = await owner<string>(async (tx) => {
    const process = await createProcess(tx, { customerId: acme, requirements: [ADULT_FIRST] });
    const person = await createSubjectUser(tx, { customerId: acme, email: 'walk@example.test' });
    const c = await createCase(tx, {
      customerId: acme,
      processId: process.id,
      subjectId: person.id,
      activityStates: ['ca-awaiting-ops'],
    });
    const [row] = await tx
      .select({ id: caseActivities.id })
      .from(caseActivities)
      .where(eq(caseActivities.caseId, c.id));
    return String(row?.id ?? '');
  });
  nested.userId = await listed(`/api/ops/customers/${acme}/users/`);
  nested.pbId = await first(pricebooks, pricebooks.id, pricebooks.customerId);
}, 120_000);
afterAll(async () => {
  await app.close();
  await drop();
  rmSync(dir, { recursive: true, force: true });
});

const opsRoutes = () =>
  app.routeTable.filter((r) => r.url.startsWith('/api/ops/') && r.method !== 'HEAD');

/** `customers` of /api/ops/customers/:id/users/, `trust-to-ride/sessions` of its routes. */
const resourceOf = (url: string) => url.slice('/api/ops/'.length).split('/:')[0] ?? '';

/** The route's URL with real ids in place of its params. */
function filled(url: string): string {
  return url.replace(/:([A-Za-z]+)/g, (_, name: string) => {
    const v = name === 'id' ? (byRoute[url] ?? ids[resourceOf(url)]) : nested[name];
    if (!v) throw new Error(`no id for :${name} of ${url}`);
    return encodeURIComponent(v);
  });
}

/** What the walk must not change, read as the owner. */
const snapshot = () =>
  owner<Record<string, unknown>>(async (tx) => {
    const count = async (table: PgTable) =>
      (await tx.select({ n: sql<number>`count(*)::int` }).from(table))[0]?.n;
    const [activity] = await tx
      .select({ by: caseActivities.claimedById, state: caseActivities.state })
      .from(caseActivities)
      .where(eq(caseActivities.id, queued));
    const [customer] = await tx.select().from(customers).where(eq(customers.id, acme));
    return {
      // every change the product makes is audited; logins happened before the first snapshot
      audited: (
        await tx
          .select({ n: sql<number>`count(*)::int` })
          .from(auditActions)
          .where(ne(auditActions.verb, 'logged_in'))
      )[0]?.n,
      customers: await count(customers),
      pricebooks: await count(pricebooks),
      windows: await count(maintenanceWindows),
      activity,
      customer,
    };
  });

describe('every /api/ops/ route', () => {
  it('is known: each path id of each route has a real id of the demo world', () => {
    const routes = opsRoutes();
    expect(routes.length).toBeGreaterThan(100);
    const unknown = routes
      .filter((r) => r.url.includes('/:'))
      .filter((r) => {
        try {
          filled(r.url);
          return false;
        } catch {
          return true;
        }
      })
      .map((r) => `${r.method} ${r.url}`);
    expect(unknown).toEqual([]);
  });

  it('finds those ids for operations: every detail route answers 200 with them', async () => {
    const answers: string[] = [];
    for (const r of opsRoutes().filter((x) => x.method === 'GET' && x.url.includes('/:'))) {
      const res = await inject(ops, 'GET', filled(r.url));
      answers.push(`${r.url} ${res.statusCode}`);
    }
    expect(answers.length).toBeGreaterThan(30);
    expect(answers.filter((a) => !a.endsWith(' 200'))).toEqual([]);
  });

  it('answers 403 to customer staff and to subjects, records each refusal, and changes nothing', async () => {
    const before = await snapshot();
    const answers: string[] = [];
    for (const r of opsRoutes()) {
      const url = filled(r.url);
      const body = r.method === 'GET' || r.method === 'DELETE' ? undefined : {};
      for (const [who, client] of [
        ['admin', admin],
        ['subject', subject],
      ] as const) {
        const res = await inject(client, r.method, url, body);
        answers.push(`${who} ${r.method} ${r.url} ${res.statusCode}`);
      }
    }
    expect(answers.length).toBe(opsRoutes().length * 2);
    expect(answers.filter((a) => !a.endsWith(' 403'))).toEqual([]);
    expect(await snapshot()).toEqual(before);
    expect(before.activity).toEqual({ by: null, state: 'ca-awaiting-ops' });
    // the audit trail of refusals names each route the administrator was refused
    const refused = await owner<string[]>(async (tx) =>
      (
        await tx
          .select({ route: securityRefusals.route })
          .from(securityRefusals)
          .where(eq(securityRefusals.actorName, 'Alex Admin'))
      ).map((x) => x.route),
    );
    const missing = opsRoutes()
      .map((r) => `${r.method} ${r.url}`)
      .filter((route) => !refused.includes(route));
    expect(missing).toEqual([]);
  });

  it('answers 401 to anonymous callers', async () => {
    const anon = await anonymous(app);
    const answers: string[] = [];
    for (const r of opsRoutes()) {
      const body = r.method === 'GET' || r.method === 'DELETE' ? undefined : {};
      const res = await inject(anon, r.method, filled(r.url), body);
      answers.push(`${r.method} ${r.url} ${res.statusCode}`);
    }
    expect(answers.filter((a) => !a.endsWith(' 401'))).toEqual([]);
  });
});
