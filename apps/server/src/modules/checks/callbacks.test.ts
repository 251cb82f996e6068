// @postgres: the callback inbox applied by jobs; a second process picks up what a dead one stored

import type { ActivityConfig, DbsResultData } from '@kestrel/domain';
import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  type Client,
  createCase,
  createProcess,
  ManualClock,
  type TestApp,
} from '../../../test/helpers.js';
import { type ActivityOut, kindsWorld } from '../../../test/kinds.js';
import { jobActor } from '../../jobs/service-job.js';
import { queueJobs } from '../../platform/jobs.js';
import { runInTenant } from '../../platform/service-context.js';
import { signWebhook } from '../../platform/webhooks.js';
import { DisclosureSimulator } from '../../providers/dbs-basic/simulator.js';
import { caseActivities } from '../activities/activities.table.js';
import { createCaseBasicDetails } from '../case-data/case-data.factories.js';
import { createCaseOnlineIdv } from '../online-idv/online-idv.factories.js';
import { applyInbox, checksCallbacksJob } from './callbacks.js';
import { checkCallbackInbox } from './callbacks.table.js';
import { checkEngine } from './providers.js';

// The provider-callback inbox (issue 17). No workers in this app: a stored callback's job runs
// only when a test drains the queue (t.settle()), so "stored, not yet applied" can be seen.
const DAY = 24 * 60 * 60 * 1000;
const days = new ManualClock(new Date());
const world = kindsWorld({
  app: { config: { jobWorkers: false } },
  ops: false,
  providerClock: days,
});
let t: TestApp;
let acme: number;
let admin: Client;
beforeAll(() => {
  ({ t, acme, admin } = world);
});

async function openCase(surname: string, code = 'dbs-basic', config: ActivityConfig = {}) {
  return t.owner(async (tx) => {
    const p = await createProcess(tx, { customerId: acme, requirements: [{ code, config }] });
    const c = await createCase(tx, { customerId: acme, processId: p.id });
    await createCaseBasicDetails(
      tx,
      { customerId: acme, caseId: c.id },
      { forename: 'Ada', surname, dob: '1990-01-01' },
    );
    const [a] = await tx.select().from(caseActivities).where(eq(caseActivities.caseId, c.id));
    if (!a) throw new Error('no activity');
    return { caseId: c.id, activityId: a.id };
  });
}

const submit = (k: { caseId: number; activityId: number }) => world.submitActivities(k);

type Out = ActivityOut<DbsResultData> & { processing_data: { reference: string } };
const activity = async (id: number) => (await world.activity<DbsResultData>(id)) as Out;

type CallbackProvider = 'dbs-basic' | 'ebulk';

const simulator = (provider: CallbackProvider = 'dbs-basic') => {
  const p = checkEngine(t.app.deps).providers.get(provider);
  if (!(p instanceof DisclosureSimulator)) throw new Error('not the simulator');
  return p;
};

const inboxOf = (activityId: number) =>
  t.owner((tx) =>
    tx
      .select()
      .from(checkCallbackInbox)
      .where(eq(checkCallbackInbox.caseActivityId, activityId))
      .orderBy(checkCallbackInbox.id),
  );

describe('the callback inbox', () => {
  const post = (activityId: number, ref: string, eventId: string) => {
    const cb = simulator().callbackFor(ref, eventId);
    return t.app.inject({
      method: 'POST',
      url: `/callbacks/checks/dbs-basic/${activityId}/`,
      headers: cb.headers,
      payload: cb.body,
    });
  };

  it('stores the callback before its 2xx and applies it in a job, once, replays ignored', async () => {
    const k = await openCase('Inbox');
    await submit(k);
    const before = await activity(k.activityId);
    const ref = before.processing_data.reference;
    days.advance(DAY);
    const res = await post(k.activityId, ref, 'inbox-1');
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ status: 'stored' });
    // Answered once stored: the row and its job are committed, the activity not yet changed.
    const [stored] = await inboxOf(k.activityId);
    expect(stored).toMatchObject({ eventId: 'inbox-1', appliedAt: null, outcome: null });
    expect(stored?.body).toMatchObject({ event_id: 'inbox-1', reference: ref });
    const jobs = await t.owner((tx) =>
      tx.select().from(queueJobs).where(eq(queueJobs.name, 'checks-callbacks')),
    );
    expect(jobs.some((j) => (j.data as { inbox_id?: number }).inbox_id === stored?.id)).toBe(true);
    expect((await activity(k.activityId)).processing_data).toEqual(before.processing_data);
    // A replay before and after it is applied: 'duplicate', no second row, no second job.
    expect((await post(k.activityId, ref, 'inbox-1')).json()).toEqual({ status: 'duplicate' });
    await t.settle();
    expect((await post(k.activityId, ref, 'inbox-1')).json()).toEqual({ status: 'duplicate' });
    await t.settle();
    const rows = await inboxOf(k.activityId);
    expect(rows.map((r) => r.outcome)).toEqual(['applied']);
    const after = await activity(k.activityId);
    expect(after.processing_data.event_ids).toEqual(['inbox-1']);
    expect(after.result_data.application?.police_computer_search_date).toBeTruthy();
    // The job run again (a retry after a crash past its commit): nothing applied twice.
    await runInTenant(t.app.deps, jobActor(acme), (ctx) => applyInbox(ctx, k.activityId));
    expect((await activity(k.activityId)).processing_data).toEqual(after.processing_data);
  });

  it('applies many waiting callbacks of an activity in order, in one job', async () => {
    const k = await openCase('Batch');
    await submit(k);
    const ref = (await activity(k.activityId)).processing_data.reference;
    days.advance(DAY);
    for (const e of ['b-1', 'b-2', 'b-3']) {
      expect((await post(k.activityId, ref, e)).statusCode).toBe(200);
    }
    const applied = await runInTenant(t.app.deps, jobActor(acme), (ctx) =>
      applyInbox(ctx, k.activityId),
    );
    expect(applied).toBe(3);
    await t.settle(); // the three jobs find nothing left
    expect((await activity(k.activityId)).processing_data.event_ids).toEqual(['b-1', 'b-2', 'b-3']);
    expect((await inboxOf(k.activityId)).map((r) => r.outcome)).toEqual([
      'applied',
      'applied',
      'applied',
    ]);
  });

  it("one job applies its activity's callbacks, then other activities' waiting ones", async () => {
    const k1 = await openCase('First');
    const k2 = await openCase('Second');
    await submit(k1);
    await submit(k2);
    const ref1 = (await activity(k1.activityId)).processing_data.reference;
    const ref2 = (await activity(k2.activityId)).processing_data.reference;
    days.advance(DAY);
    expect((await post(k2.activityId, ref2, 'o-1')).statusCode).toBe(200);
    expect((await post(k1.activityId, ref1, 'o-2')).statusCode).toBe(200);
    const [own] = await inboxOf(k1.activityId);
    if (!own) throw new Error('not stored');
    await checksCallbacksJob.handle(
      { case_activity_id: k1.activityId, customer_id: acme, inbox_id: own.id },
      t.app.deps,
    );
    expect((await activity(k1.activityId)).processing_data.event_ids).toEqual(['o-2']);
    expect((await activity(k2.activityId)).processing_data.event_ids).toEqual(['o-1']);
    await t.settle(); // both jobs: nothing left to apply
    expect((await inboxOf(k2.activityId)).map((r) => r.outcome)).toEqual(['applied']);
  });

  it('loses nothing when the process dies between storing and applying', async () => {
    const k = await openCase('Crash');
    await submit(k);
    const before = await activity(k.activityId);
    const ref = before.processing_data.reference;
    days.advance(DAY);
    expect((await post(k.activityId, ref, 'crash-1')).statusCode).toBe(200);
    // The job's transaction dies after applying, before its commit: nothing of it remains.
    await expect(
      runInTenant(t.app.deps, jobActor(acme), async (ctx) => {
        expect(await applyInbox(ctx, k.activityId)).toBe(1);
        throw new Error('crash');
      }),
    ).rejects.toThrow('crash');
    expect((await inboxOf(k.activityId)).map((r) => r.appliedAt)).toEqual([null]);
    expect((await activity(k.activityId)).processing_data).toEqual(before.processing_data);
    // Another server process's workers run the committed job: applied once.
    const other = await t.twin();
    await other.deps.jobs.settle();
    expect((await activity(k.activityId)).processing_data.event_ids).toEqual(['crash-1']);
    expect((await inboxOf(k.activityId)).map((r) => r.outcome)).toEqual(['applied']);
  });
});

/** Staff record the identity route, verify it, then countersign: an e-bulk check then starts. */
async function verifyAndCountersign(caseId: number) {
  const url = `/api/case-dbs-details/${caseId}/`;
  const send = (method: 'PATCH' | 'POST', path: string, payload: object) =>
    t.app.inject({ method, url: `${url}${path}`, headers: admin.headers, payload });
  await t.owner((tx) => createCaseOnlineIdv(tx, { customerId: acme, caseId }));
  expect((await send('PATCH', '', { idv_option: 'online' })).statusCode).toBe(200);
  expect((await send('POST', 'verify/', {})).statusCode).toBe(200);
  await t.settle();
  expect((await send('POST', 'countersign/', {})).statusCode).toBe(200);
  await t.settle();
}

/** The two providers' callback endpoints: their check, their reference and their secret. */
const PROVIDERS = [
  {
    provider: 'dbs-basic',
    other: 'ebulk',
    code: 'dbs-basic',
    config: {},
    reference: /^BD-/,
  },
  {
    provider: 'ebulk',
    other: 'dbs-basic',
    code: 'dbs-enhanced',
    config: { workforce: 'A', adult_barred_list: true },
    reference: /^EB-/,
  },
] as const satisfies readonly {
  provider: CallbackProvider;
  other: CallbackProvider;
  code: string;
  config: ActivityConfig;
  reference: RegExp;
}[];

const secretOf = (provider: CallbackProvider) => {
  const { config } = checkEngine(t.app.deps);
  return config.providers[provider].callbackSecret;
};
const nowSeconds = () => Math.floor(t.clock.now().getTime() / 1000);
const signed = (secret: string, body: string, at = nowSeconds()) => ({
  'content-type': 'application/json',
  'x-kestrel-signature': signWebhook(secret, at, body),
});

/** An application of `provider` in progress: submitted (and for e-bulk verified, countersigned). */
async function startApplication(p: (typeof PROVIDERS)[number], surname: string) {
  const k = await openCase(surname, p.code, p.config);
  await submit(k);
  if (p.provider === 'ebulk') await verifyAndCountersign(k.caseId);
  const started = await activity(k.activityId);
  expect(started.state).toBe('ca-in-progress');
  expect(started.processing_data.reference).toMatch(p.reference);
  return { ...k, ref: started.processing_data.reference };
}

/** The `checks-callbacks` jobs queued for one activity. */
const callbackJobsOf = async (activityId: number) =>
  (
    await t.owner((tx) => tx.select().from(queueJobs).where(eq(queueJobs.name, 'checks-callbacks')))
  ).filter((j) => (j.data as { case_activity_id?: number }).case_activity_id === activityId);

/** All a refused callback must leave as it was: the activity as read, its inbox, its jobs. */
const everythingOf = async (activityId: number) => ({
  activity: (
    await t.app.inject({
      method: 'GET',
      url: `/api/case-activities/${activityId}/`,
      headers: admin.headers,
    })
  ).json(),
  inbox: await inboxOf(activityId),
  jobs: (await callbackJobsOf(activityId)).length,
});

interface Refusal {
  /** The genuine signed callback of the application now (under a fresh event id). */
  genuine: () => { body: string; headers: Record<string, string> };
  provider: CallbackProvider;
  other: CallbackProvider;
}
const BAD_SIGNATURE = { detail: 'Invalid callback signature.' };
const otherHexDigit = (header: string) => header.replace(/.$/, (d) => (d === '0' ? '1' : '0'));
/** A signed body that is not a callback: the genuine one with `change` made. */
const reshaped = (r: Refusal, change: (cb: Record<string, unknown>) => void) => {
  const cb = JSON.parse(r.genuine().body) as Record<string, unknown>;
  change(cb);
  const body = JSON.stringify(cb);
  return { headers: signed(secretOf(r.provider), body), body };
};

const REFUSALS: [
  string,
  (r: Refusal) => { headers: Record<string, string>; body: string },
  number,
  unknown,
][] = [
  [
    'unsigned',
    (r) => ({ headers: { 'content-type': 'application/json' }, body: r.genuine().body }),
    401,
    BAD_SIGNATURE,
  ],
  [
    'a tampered signature',
    (r) => {
      const cb = r.genuine();
      const header = cb.headers['x-kestrel-signature'] ?? '';
      return {
        headers: { ...cb.headers, 'x-kestrel-signature': otherHexDigit(header) },
        body: cb.body,
      };
    },
    401,
    BAD_SIGNATURE,
  ],
  [
    'a tampered body (the signature of another)',
    (r) => {
      const cb = r.genuine();
      return { headers: cb.headers, body: cb.body.replace('"event_id":"', '"event_id":"x') };
    },
    401,
    BAD_SIGNATURE,
  ],
  [
    "signed with the other provider's secret",
    (r) => {
      const { body } = r.genuine();
      return { headers: signed(secretOf(r.other), body), body };
    },
    401,
    BAD_SIGNATURE,
  ],
  [
    'replayed after the 5 minutes allowed (a stale timestamp)',
    (r) => {
      const { body } = r.genuine();
      return { headers: signed(secretOf(r.provider), body, nowSeconds() - 301), body };
    },
    401,
    BAD_SIGNATURE,
  ],
  [
    'signed more than 5 minutes ahead',
    (r) => {
      const { body } = r.genuine();
      return { headers: signed(secretOf(r.provider), body, nowSeconds() + 301), body };
    },
    401,
    BAD_SIGNATURE,
  ],
  [
    'a malformed signature header',
    (r) => ({
      headers: { 'content-type': 'application/json', 'x-kestrel-signature': 'v1=deadbeef' },
      body: r.genuine().body,
    }),
    401,
    BAD_SIGNATURE,
  ],
  [
    'signed but not JSON',
    (r) => ({ headers: signed(secretOf(r.provider), '{'), body: '{' }),
    400,
    { non_field_errors: ['Malformed JSON.'] },
  ],
  [
    'signed but nested 10,000 deep (refused as /api/ refuses it, not a stack overflow)',
    (r) => {
      const body = r
        .genuine()
        .body.replace(/}$/, `,"deep":${'['.repeat(10_000)}${']'.repeat(10_000)}}`);
      return { headers: signed(secretOf(r.provider), body), body };
    },
    400,
    { non_field_errors: ['JSON nested deeper than 32 levels.'] },
  ],
  [
    'signed but without its event id',
    (r) =>
      reshaped(r, (cb) => {
        delete cb.event_id;
      }),
    400,
    { event_id: ['Required'] },
  ],
  [
    'signed but with an unknown status',
    (r) =>
      reshaped(r, (cb) => {
        cb.status = 'done';
      }),
    400,
    {
      status: [
        'Invalid option: expected one of "in-progress"|"complete"|"cancelled"|"top-up-required"',
      ],
    },
  ],
];

describe.each(PROVIDERS)('the $provider callback endpoint', (p) => {
  let k: Awaited<ReturnType<typeof startApplication>>;
  const url = () => `/callbacks/checks/${p.provider}/${k.activityId}/`;
  const post = (cb: { headers: Record<string, string>; body: string }) =>
    t.app.inject({ method: 'POST', url: url(), headers: cb.headers, payload: cb.body });
  let events = 0;
  const refusal: Refusal = {
    genuine: () => simulator(p.provider).callbackFor(k.ref, `${p.provider}-refused-${++events}`),
    provider: p.provider,
    other: p.other,
  };

  beforeAll(async () => {
    k = await startApplication(p, `Refused${p.code.replace('-', '')}`);
    // a day on: the application has moved, so an accepted callback would change the activity
    days.advance(DAY);
  });

  it.each(REFUSALS)('refuses a callback %s, changing nothing', async (_, make, status, error) => {
    const before = await everythingOf(k.activityId);
    const res = await post(make(refusal));
    expect([res.statusCode, res.json()]).toEqual([status, error]);
    await t.settle();
    expect(await everythingOf(k.activityId)).toEqual(before);
    expect(before.inbox).toEqual([]);
  });

  it('stores and applies a replayed event once', async () => {
    const before = await activity(k.activityId);
    const cb = simulator(p.provider).callbackFor(k.ref, `${p.provider}-once`);
    const first = await post(cb);
    expect([first.statusCode, first.json()]).toEqual([200, { status: 'stored' }]);
    // the same event again: before it is applied, after, and re-signed later with a newer body
    expect((await post(cb)).json()).toEqual({ status: 'duplicate' });
    await t.settle();
    const applied = await activity(k.activityId);
    expect(applied.processing_data).not.toEqual(before.processing_data);
    expect(applied.processing_data.event_ids).toEqual([`${p.provider}-once`]);
    expect((await post(cb)).json()).toEqual({ status: 'duplicate' });
    days.advance(DAY);
    const later = simulator(p.provider).callbackFor(k.ref, `${p.provider}-once`);
    expect(later.body).not.toEqual(cb.body);
    expect((await post(later)).json()).toEqual({ status: 'duplicate' });
    await t.settle();
    const rows = await inboxOf(k.activityId);
    expect(rows.map((r) => [r.provider, r.eventId, r.outcome])).toEqual([
      [p.provider, `${p.provider}-once`, 'applied'],
    ]);
    expect(await callbackJobsOf(k.activityId)).toHaveLength(1);
    const after = await activity(k.activityId);
    expect(after.processing_data).toEqual(applied.processing_data);
    expect(after.processing_data.events.filter((e) => e.type === 'callback')).toHaveLength(1);
  });
});
