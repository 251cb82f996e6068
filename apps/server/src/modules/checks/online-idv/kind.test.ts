import type { OnlineIdvResultData } from '@kestrel/domain';
import { and, eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { type Client, ManualClock, type TestApp } from '../../../../test/helpers.js';
import { kindsWorld } from '../../../../test/kinds.js';
import { auditActions } from '../../../platform/tables/audit.table.js';
import { IdvProviderError } from '../../../providers/idv/provider.js';
import { IdvSimulator } from '../../../providers/idv/simulator.js';
import { caseActivities } from '../../activities/activities.table.js';
import { idvProviderOf } from '../../online-idv/provider-of.js';

/*
 * Online identity on the engine, end to end through the API (issue 27): the subject does the
 * check in the portal (the simulator's page: the surname picks the outcome, providers/idv/
 * README.md), submits, and the result moves the activity; a result still to come is polled and
 * called back (signed, to the engine's route); operations approve an identity by hand.
 */

const world = kindsWorld({
  app: {
    clock: new ManualClock('2026-11-24T09:00:00Z'),
    config: { publicUrl: 'http://localhost:8080' },
  },
  customers: ['Other'],
});
const { call } = world;
let t: TestApp;
let acme: number;
let other: number;
let admin: Client;
let ops: Client;
beforeAll(() => {
  ({ t, acme, admin, ops } = world);
  other = world.customer('Other');
});

const sim = (): IdvSimulator => {
  const p = idvProviderOf(t.app.deps);
  if (!(p instanceof IdvSimulator)) throw new Error('expected the simulator');
  return p;
};

/** A subject `surname` with a login and an open case asking for online identity. */
const idvCase = (surname: string, customerId = acme) =>
  world.subjectCase({
    requirements: ['online-idv'],
    customerId,
    subject: { firstName: 'Ada', lastName: surname, dob: '1985-12-10' },
  });

type Case = Awaited<ReturnType<typeof idvCase>>;

/** The subject starts the check; with `finish`, verifies on the provider's page and comes back. */
async function doCheck(k: Case, finish = true): Promise<string> {
  const started = await call(k.subject, 'POST', `/api/s/case-online-idv/${k.caseId}/start/`);
  expect(started.statusCode, started.body).toBe(201);
  const { session, url } = started.json();
  if (finish) {
    const path = new URL(url).pathname;
    const done = await t.app.inject({
      method: 'POST',
      url: path,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: 'action=verify',
    });
    expect(done.statusCode).toBe(303);
    const back = await call(k.subject, 'POST', `/api/s/case-online-idv/${k.caseId}/refresh/`);
    expect(back.statusCode, back.body).toBe(200);
  }
  return session;
}

const submit = (k: Case) => world.submitPortal(k.subject, k.caseId, ['welcome', 'online-idv']);
const activity = (id: number) => world.activity<OnlineIdvResultData>(id);

describe('the result moves the activity (spec point 4)', () => {
  it('a verified identity completes it with names, date of birth, address, level and schemes', async () => {
    const k = await idvCase('Byron');
    const session = await doCheck(k);
    await submit(k);
    const a = await activity(k.activityId);
    expect(a.state).toBe('ca-complete');
    expect(a.processing_data.reference).toBe(session);
    expect(a.result_data).toMatchObject({
      outcome: 'passed',
      verified: true,
      method: 'digital',
      forename: 'Ada',
      surname: 'Byron',
      dob: '1985-12-10',
      current_address: { line_one: '10 Verified Street', town: 'London', postcode: 'SW1A 1AA' },
      level_of_assurance: 'medium',
      rtw_verified: true,
      dbs_identity: 'verified',
      name_mismatch: null,
      ibv_verified: false,
      manual_idv_approved: false,
    });
    const c = (await call(admin, 'GET', `/api/cases/${k.caseId}/`)).json();
    expect(c.state).toBe('pending-case-decision');
  });

  it.each([
    ['Bankes', 'ca-complete', { method: 'bank', ibv_verified: true, dbs_identity: 'manual' }],
    ['Branchley', 'ca-complete', { method: 'post-office', verified: true }],
    ['NoRTW', 'ca-complete', { rtw_verified: false, dbs_identity: 'verified' }],
    ['Failwell', 'ca-pending-activity-decision', { outcome: 'failed', verified: false }],
    [
      'MismatchAccount',
      'ca-pending-activity-decision',
      { verified: true, name_mismatch: { reason: 'account_name_incorrect' } },
    ],
  ] as const)('%s ends %s', async (surname, state, data) => {
    const k = await idvCase(surname);
    await doCheck(k);
    await submit(k);
    const a = await activity(k.activityId);
    expect(a.state).toBe(state);
    expect(a.result_data).toMatchObject(data);
  });
});

describe('a result still to come', () => {
  it('is polled and called back: the signed callback completes the activity, once', async () => {
    const k = await idvCase('Later');
    const session = await doCheck(k, false);
    await submit(k);
    const waiting = await activity(k.activityId);
    expect([waiting.state, waiting.processing_data.reference]).toEqual(['ca-in-progress', session]);
    const { body, signature } = sim().finish(session);
    const url = `/callbacks/checks/idv/${k.activityId}/`;
    const post = (sig?: string, to = url) =>
      t.app.inject({
        method: 'POST',
        url: to,
        headers: { 'content-type': 'application/json', ...(sig ? { 'idv-signature': sig } : {}) },
        payload: body,
      });
    // unsigned: refused, nothing stored
    expect((await post()).statusCode).toBe(401);
    // another tenant's activity named in the address: stored, then refused by the engine
    const theirs = await idvCase('Other', other);
    await doCheck(theirs, false);
    await submit(theirs);
    const wrong = await post(signature, `/callbacks/checks/idv/${theirs.activityId}/`);
    expect(wrong.json()).toEqual({ status: 'stored' });
    await t.settle();
    expect((await activity(k.activityId)).state).toBe('ca-in-progress');
    const theirsNow = await t.owner((tx) =>
      tx.select().from(caseActivities).where(eq(caseActivities.id, theirs.activityId)),
    );
    expect(theirsNow[0]?.state).toBe('ca-in-progress');
    // a replay of an event already received is a duplicate; the right address applies it
    expect((await post(signature)).json()).toEqual({ status: 'duplicate' });
  });

  it('is applied by its own callback to its own activity', async () => {
    const k = await idvCase('Soon');
    const session = await doCheck(k, false);
    await submit(k);
    const { body, signature } = sim().finish(session);
    const res = await t.app.inject({
      method: 'POST',
      url: `/callbacks/checks/idv/${k.activityId}/`,
      headers: { 'content-type': 'application/json', 'idv-signature': signature },
      payload: body,
    });
    expect(res.json()).toEqual({ status: 'stored' });
    await t.settle();
    const a = await activity(k.activityId);
    expect(a.state).toBe('ca-complete');
    expect(a.processing_data.event_ids).toEqual([`evt_${session}`]);
    expect(a.result_data).toMatchObject({ verified: true, surname: 'Soon' });
  });

  it('a provider error is retried by operations, then the result comes', async () => {
    const k = await idvCase('Outage');
    const session = await doCheck(k, false);
    const provider = sim();
    const real = provider.fetchResult.bind(provider);
    let down = true;
    provider.fetchResult = async (id: string) => {
      if (down) {
        down = false;
        throw new IdvProviderError('Identity provider answered 503', true, 503);
      }
      return real(id);
    };
    try {
      await submit(k);
      expect((await activity(k.activityId)).state).toBe('ca-error-initiating');
      sim().finish(session);
      const retry = await call(ops, 'POST', `/api/ops/case-activities/${k.activityId}/retry/`, {});
      expect(retry.statusCode, retry.body).toBe(200);
      await t.settle();
      expect((await activity(k.activityId)).state).toBe('ca-complete');
    } finally {
      provider.fetchResult = real;
    }
  });
});

describe('manual approval by operations', () => {
  it('needs a reason, is audited, completes the activity and says so in its result', async () => {
    const k = await idvCase('Mismatch');
    await doCheck(k);
    await submit(k);
    expect((await activity(k.activityId)).state).toBe('ca-pending-activity-decision');
    const url = `/api/ops/case-activities/${k.activityId}/idv-approve/`;
    expect((await call(ops, 'POST', url, { reason: ' ' })).json()).toEqual({
      reason: ['Required'],
    });
    // customer staff have no such route (operations only)
    expect((await call(admin, 'POST', url, { reason: 'x' })).statusCode).toBe(403);
    const ok = await call(ops, 'POST', url, { reason: 'Marriage certificate seen' });
    expect(ok.statusCode, ok.body).toBe(200);
    const a = await activity(k.activityId);
    expect(a.state).toBe('ca-complete');
    expect(a.result_data).toMatchObject({
      manual_idv_approved: true,
      method: 'manual',
      verified: false,
      name_mismatch: { reason: 'document_previous_name' },
      manual_approval: { reason: 'Marriage certificate seen' },
    });
    const audits = await t.owner((tx) =>
      tx
        .select()
        .from(auditActions)
        .where(
          and(
            eq(auditActions.contentType, 'cases.caseonlineidv'),
            eq(auditActions.objectId, String(k.caseId)),
          ),
        ),
    );
    expect(audits.at(-1)?.changes).toMatchObject({
      manual_idv_approved: [false, true],
      reason: 'Marriage certificate seen',
    });
    const again = await call(ops, 'POST', url, { reason: 'again' });
    expect(again.json()).toEqual({
      state: ['This check is finished: its identity can no longer be approved.'],
    });
  });
});

describe('idv-case-activities (spec point 7)', () => {
  it('lists the customer’s online identity activities with their check data, filtered', async () => {
    const list = await call(admin, 'GET', '/api/idv-case-activities/?page_size=100');
    expect(list.statusCode, list.body).toBe(200);
    const page = list.json();
    expect(page.count).toBeGreaterThan(5);
    const caseIds = new Set<number>(page.results.map((r: { case: number }) => r.case));
    const theirs = await t.owner((tx) =>
      tx.select().from(caseActivities).where(eq(caseActivities.customerId, other)),
    );
    for (const a of theirs) expect(caseIds.has(a.caseId)).toBe(false);
    const verified = (await call(admin, 'GET', '/api/idv-case-activities/?verified=true')).json();
    expect(
      verified.results.every((r: { result_data: { verified: boolean } }) => r.result_data.verified),
    ).toBe(true);
    const one = page.results[0];
    const got = await call(admin, 'GET', `/api/idv-case-activities/${one.id}/`);
    expect(got.json()).toMatchObject({ id: one.id, online_idv: { session: expect.any(String) } });
    const all = (await call(ops, 'GET', '/api/ops/idv-case-activities/?page_size=100')).json();
    expect(all.count).toBeGreaterThan(page.count);
  });
});
