// The provider-callback bench (issue 17): offers signed criminal-record callbacks at a fixed rate
// (open loop: each is sent at its time, whether or not earlier ones have been answered) to the
// real server on PostgreSQL. The request only verifies the callback and stores it in the inbox
// (check_callback_inbox); the server's job workers apply it. After the load the bench waits for
// the inbox to drain, then counts from the database that every acknowledged event was stored and
// applied exactly once and that replays changed nothing. Reports the accepted rate, p50/p99
// latency, refusals, failures, the drain time, the load average, and the machine's ceiling (a
// bare route of the same server under the same open-loop client). Run by `node scripts/bench.mjs --only=callbacks [--duration=30] [--rate=1000]`
// (or directly with BENCH_DATABASE_URL naming an empty database the user owns).
import { Agent, request } from 'node:http';
import { loadavg } from 'node:os';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { eq, inArray, sql } from 'drizzle-orm';
import { buildApp } from '../src/app.js';
import { openPgPool, pgDatabase, servingUrl } from '../src/db/connection.js';
import { createCase, createCustomer, createProcess } from '../src/db/factories.js';
import { migrateDatabase } from '../src/db/migrate.js';
import { caseActivities } from '../src/modules/activities/activities.table.js';
import { createCaseBasicDetails } from '../src/modules/case-data/case-data.factories.js';
import { processingOf } from '../src/modules/checks/activity.js';
import { checkCallbackInbox } from '../src/modules/checks/callbacks.table.js';
import { initiateActivity } from '../src/modules/checks/engine.js';
import { activitiesSubmitted } from '../src/modules/checks/hooks.js';
import { checkEngine } from '../src/modules/checks/providers.js';
import { runAsSystem } from '../src/platform/service-context.js';
import { signWebhook } from '../src/platform/webhooks.js';
import { seedPlatform } from './seed.js';
import { seedCases } from './seed-cases.js';

const HOST = '127.0.0.1';
const RATE = Number(process.env.BENCH_RATE ?? 1000);
const DURATION = Number(process.env.BENCH_DURATION ?? 30);
const ACTIVITIES = Number(process.env.BENCH_ACTIVITIES ?? 1000);
/** One in this many callbacks repeats an earlier event id (a provider's redelivery). */
const REPLAY_EVERY = 10;
const MAX_IN_FLIGHT = 4000;

const log = (text: string) => {
  if (process.send) process.send({ type: 'log', text });
  else process.stdout.write(`  ${text}\n`);
};

const url = process.env.BENCH_DATABASE_URL;
if (!url) throw new Error('BENCH_DATABASE_URL is required');
const db = pgDatabase(openPgPool(servingUrl(url)), openPgPool(url, 4));
await migrateDatabase(db);
// Workers on: the inbox's jobs apply the callbacks (the start jobs the setup enqueues find their
// activity already started below, and end).
const app = await buildApp({
  db,
  logger: false,
  config: { logLevel: 'silent', housekeepingMs: 0, webDist: null, jobWorkers: true },
});
// The ceiling: a bare route of the same server (no database), under the same client.
app.post('/bench/ceiling/', async () => ({ status: 'ok' }));
// The server's own time per callback (request read to answer sent), without the client's queue.
const serverMs: number[] = [];
app.addHook('onResponse', async (request, reply) => {
  if (request.url.startsWith('/callbacks/')) serverMs.push(reply.elapsedTime);
});
const lag = monitorEventLoopDelay({ resolution: 10 });
await app.listen({ host: HOST, port: 0 });
const address = app.server.address();
const port = address && typeof address === 'object' ? address.port : 0;
/**
 * The client: keep-alive connections (at most CLIENT_SOCKETS; more requests wait in the client,
 * their wait counted in their latency, as an open loop does), not a new connection per request.
 */
const CLIENT_SOCKETS = Number(process.env.BENCH_SOCKETS ?? 64);
const agent = new Agent({ keepAlive: true, maxSockets: CLIENT_SOCKETS });
function post(
  path: string,
  headers: Record<string, string>,
  body: string,
): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: HOST,
        port,
        path,
        method: 'POST',
        agent,
        headers: { ...headers, 'content-length': Buffer.byteLength(body) },
      },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (c: string) => {
          text += c;
        });
        res.on('end', () => resolve({ status: res.statusCode ?? 0, text }));
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

// ---------------------------------------------------------------- the 200,000-case data set
// The bench's activities sit among the load bench's data set (bench/seed*.ts: 200 tenants,
// 200,000 cases, 600,000 activities) unless BENCH_CASES=0.
if (process.env.BENCH_CASES !== '0') {
  const s0 = performance.now();
  const { customerIds } = await seedPlatform(db);
  const cases = await seedCases(db, customerIds);
  if (!cases.available) throw new Error(cases.reason);
  await db.ownerExec('analyze');
  const [n] = await db.readInline(
    { scope: 'all', customerId: null },
    'select count(*)::int as cases from cases',
  );
  log(`${n?.cases} cases loaded (${((performance.now() - s0) / 1000).toFixed(1)} s)`);
}

// ---------------------------------------------------------------- the activities in progress
const t0 = performance.now();
const ids: number[] = [];
await db.ownerTransaction(async (tx) => {
  const customerId = (await createCustomer(tx, { name: 'Callback bench' })).id;
  const p = await createProcess(tx, { customerId, requirements: ['dbs-basic'] });
  for (let i = 0; i < ACTIVITIES; i++) {
    const c = await createCase(tx, { customerId, processId: p.id });
    await createCaseBasicDetails(
      tx,
      { customerId, caseId: c.id },
      {
        forename: 'Bench',
        surname: `Smith${i}`,
        dob: '1990-01-01',
      },
    );
    const [a] = await tx.select().from(caseActivities).where(eq(caseActivities.caseId, c.id));
    if (a) ids.push(a.id);
  }
});
const customerOf = new Map<number, number>();
for (const id of ids) {
  await runAsSystem(app.deps, async (ctx) => {
    const [a] = await ctx.tx.select().from(caseActivities).where(eq(caseActivities.id, id));
    if (!a) return;
    customerOf.set(id, a.customerId);
    await activitiesSubmitted(ctx, a.caseId, [id]);
  });
}
for (let i = 0; i < ids.length; i += 10) {
  await Promise.all(
    ids
      .slice(i, i + 10)
      .map((id) =>
        initiateActivity(app.deps, { case_activity_id: id, customer_id: customerOf.get(id) ?? 0 }),
      ),
  );
}
const references = new Map<number, string>();
const rows = await db.ownerTransaction((tx) =>
  tx.select().from(caseActivities).where(inArray(caseActivities.id, ids)),
);
for (const r of rows) {
  const ref = processingOf(r.processingData)?.reference;
  if (ref) references.set(r.id, ref);
}
log(
  `${references.size} activities in progress (${((performance.now() - t0) / 1000).toFixed(1)} s)`,
);
if (references.size !== ids.length) throw new Error('not every activity started');

// ---------------------------------------------------------------- the load
const secret = checkEngine(app.deps).config.providers['dbs-basic'].callbackSecret;
/** Per activity, the distinct event ids the server acknowledged (2xx): each must be stored once. */
const acked = new Map<number, Set<string>>();
const distinctSent = new Set<string>();
const latencies: number[] = [];
const outcome = { applied: 0, duplicate: 0, stored: 0, refused: 0, failed: 0, dropped: 0 };
let inFlight = 0;
const total = RATE * DURATION;
const eventsOf: { id: number; eventId: string }[] = [];

function bodyFor(activityId: number, eventId: string): string {
  return JSON.stringify({
    event_id: eventId,
    reference: references.get(activityId),
    status: 'in-progress',
    stage: 1,
    stages: [{ stage: 1, status: 'complete', completed_date: '2026-01-01' }],
    received_date: '2026-01-01',
    e_number: null,
    disclosure: null,
    barred_lists: [],
    top_up: null,
  });
}

async function sendOne(i: number): Promise<void> {
  let target: { id: number; eventId: string };
  const prior = eventsOf[Math.floor((i * 7919) % Math.max(eventsOf.length, 1))];
  if (i % REPLAY_EVERY === REPLAY_EVERY - 1 && prior) target = prior;
  else {
    const id = ids[i % ids.length] ?? 0;
    target = { id, eventId: `evt-${i}` };
    eventsOf.push(target);
    distinctSent.add(target.eventId);
  }
  const body = bodyFor(target.id, target.eventId);
  const started = performance.now();
  try {
    const res = await post(
      `/callbacks/checks/dbs-basic/${target.id}/`,
      {
        'content-type': 'application/json',
        'x-kestrel-signature': signWebhook(secret, Math.floor(Date.now() / 1000), body),
      },
      body,
    );
    const json = JSON.parse(res.text) as { status?: string };
    latencies.push(performance.now() - started);
    if (res.status === 200) {
      const s = acked.get(target.id) ?? new Set<string>();
      s.add(target.eventId);
      acked.set(target.id, s);
    }
    if (res.status === 200 && json.status === 'applied') outcome.applied++;
    else if (res.status === 200 && json.status === 'duplicate') outcome.duplicate++;
    else if (res.status === 200) outcome.stored++;
    else if (res.status < 500) outcome.refused++;
    else outcome.failed++;
  } catch {
    outcome.failed++;
  }
}

/** Offers `count` requests at RATE per second (open loop); returns the seconds it took. */
async function offer(count: number, send: (i: number) => Promise<void>) {
  const start = performance.now();
  const pending: Promise<void>[] = [];
  for (let i = 0; i < count; i++) {
    const due = start + (i * 1000) / RATE;
    const wait = due - performance.now();
    if (wait > 1) await new Promise((r) => setTimeout(r, wait));
    if (inFlight >= MAX_IN_FLIGHT) {
      outcome.dropped++; // the server is this far behind: counted as not accepted
      continue;
    }
    inFlight++;
    pending.push(send(i).finally(() => inFlight--));
  }
  const offeredFor = (performance.now() - start) / 1000;
  await Promise.all(pending);
  return { offeredFor, elapsed: (performance.now() - start) / 1000 };
}

const load = () =>
  loadavg()
    .map((n) => n.toFixed(1))
    .join(' ');

// The ceiling: the bare route at the same rate for up to 10 s.
const ceilingCount = Math.min(total, RATE * 10);
const ceilingLatencies: number[] = [];
let ceilingOk = 0;
const ceilingLoad = load();
const ceilingRun = await offer(ceilingCount, async () => {
  const started = performance.now();
  try {
    const res = await post('/bench/ceiling/', { 'content-type': 'application/json' }, '{}');
    ceilingLatencies.push(performance.now() - started);
    if (res.status === 200) ceilingOk++;
  } catch {
    // counted as not accepted
  }
});
const ceilingDropped = outcome.dropped;
outcome.dropped = 0;
ceilingLatencies.sort((a, b) => a - b);
const ceiling = {
  offered: ceilingCount,
  accepted_rate: Math.round(ceilingOk / ceilingRun.elapsed),
  p50_ms: Math.round(ceilingLatencies[Math.floor(0.5 * (ceilingLatencies.length - 1))] ?? 0),
  p99_ms: Math.round(ceilingLatencies[Math.floor(0.99 * (ceilingLatencies.length - 1))] ?? 0),
  dropped: ceilingDropped,
  load_average: ceilingLoad,
};
log(`ceiling (bare route, same client): ${JSON.stringify(ceiling)}`);

log(`offering ${RATE} callbacks/s for ${DURATION} s to ${ids.length} activities`);
const loadBefore = load();
lag.enable();
const { offeredFor, elapsed } = await offer(total, sendOne);
lag.disable();
const loadAfter = load();

// ---------------------------------------------------------------- the inbox drains
const drainStart = performance.now();
const DRAIN_LIMIT_S = Number(process.env.BENCH_DRAIN_SECONDS ?? 900);
let waiting = 0;
for (;;) {
  const [row] = await db.ownerTransaction((tx) =>
    tx
      .select({ n: sql<number>`count(*)::int` })
      .from(checkCallbackInbox)
      .where(sql`${checkCallbackInbox.appliedAt} is null`),
  );
  waiting = Number(row?.n ?? 0);
  if (waiting === 0 || (performance.now() - drainStart) / 1000 > DRAIN_LIMIT_S) break;
  await new Promise((r) => setTimeout(r, 500));
}
const drainSeconds = (performance.now() - drainStart) / 1000;
log(`inbox drained in ${drainSeconds.toFixed(1)} s after the load (${waiting} still waiting)`);

// ---------------------------------------------------------------- exactly once
const after = await db.ownerTransaction((tx) =>
  tx.select().from(caseActivities).where(inArray(caseActivities.id, ids)),
);
const inbox = await db.ownerTransaction((tx) =>
  tx
    .select({
      id: checkCallbackInbox.caseActivityId,
      eventId: checkCallbackInbox.eventId,
      outcome: checkCallbackInbox.outcome,
    })
    .from(checkCallbackInbox),
);
const inboxOutcome = new Map(inbox.map((r) => [`${r.id}/${r.eventId}`, r.outcome]));
let lost = 0;
let twice = 0;
let notApplied = 0;
for (const r of after) {
  const p = processingOf(r.processingData);
  const got = p?.event_ids ?? [];
  const unique = new Set(got);
  twice += got.length - unique.size;
  for (const e of acked.get(r.id) ?? []) {
    if (!inboxOutcome.has(`${r.id}/${e}`))
      lost++; // acknowledged but not stored
    else if (!unique.has(e)) notApplied++; // stored but not (yet) on its activity
  }
}
const inboxOutcomes: Record<string, number> = {};
for (const r of inbox) {
  const k = r.outcome ?? 'waiting';
  inboxOutcomes[k] = (inboxOutcomes[k] ?? 0) + 1;
}
const accepted = outcome.applied + outcome.duplicate + outcome.stored;
latencies.sort((a, b) => a - b);
const pct = (q: number) => Math.round(latencies[Math.floor(q * (latencies.length - 1))] ?? 0);
serverMs.sort((a, b) => a - b);
const serverPct = (q: number) => serverMs[Math.floor(q * (serverMs.length - 1))] ?? 0;
const figures = {
  offered: total,
  offered_rate: Math.round(total / offeredFor),
  accepted,
  accepted_rate: Math.round(accepted / elapsed),
  ...outcome,
  p50_ms: pct(0.5),
  p99_ms: pct(0.99),
  server_p50_ms: Math.round(serverPct(0.5)),
  server_p99_ms: Math.round(serverPct(0.99)),
  event_loop_delay_p99_ms: Math.round(lag.percentile(99) / 1e6),
  distinct_events: distinctSent.size,
  stored_events: after.reduce(
    (n, r) => n + (processingOf(r.processingData)?.event_ids.length ?? 0),
    0,
  ),
  inbox_rows: inbox.length,
  inbox_outcomes: inboxOutcomes,
  lost_events: lost,
  not_applied: notApplied,
  applied_twice: twice,
  drain_s: Number(drainSeconds.toFixed(1)),
  load_average_before: loadBefore,
  load_average_after: loadAfter,
  ceiling,
};
log(JSON.stringify(figures));
if (process.send) process.send({ type: 'callbacks', figures });
await app.close();
await db.close();
if (lost > 0 || twice > 0 || notApplied > 0) process.exitCode = 1;
