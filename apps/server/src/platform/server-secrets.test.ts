// @postgres: secrets made once by concurrent starts (on conflict) and read as the owner at start

import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  buildTestApp,
  ManualClock,
  storedServerSecrets,
  type TestApp,
} from '../../test/helpers.js';
import { buildApp } from '../app.js';
import { IDV_SIGNATURE_HEADER, signIdvCallback } from '../providers/idv/signature.js';
import { signWebhook } from './webhooks.js';

// Issue 26, 2: the simulators' secrets were constants in the source, so anyone could sign a
// provider callback or a payments webhook that passed (a forged callback for another tenant's
// activity was stored). They are made at random per installation, kept in server_secrets.

/** The secrets the simulators sign with, by their name in server_secrets. */
const SIMULATOR_SECRETS = [
  'simulator:dbs-basic',
  'simulator:ebulk',
  'simulator:payments',
  'simulator:idv',
] as const;

let t: TestApp;
let other: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
  other = await buildTestApp();
});
afterAll(async () => {
  await t.close();
  await other.close();
});

const nowSeconds = () => Math.floor(t.clock.now().getTime() / 1000);
const callback = (provider: string, secret: string) => {
  const body = JSON.stringify({
    event_id: `evt-forged-${provider}`,
    reference: 'B-000000000001',
    status: 'in-progress',
    stage: 0,
    stages: [],
    received_date: null,
    disclosure: null,
    barred_lists: [],
    top_up: null,
  });
  return t.app.inject({
    method: 'POST',
    url: `/callbacks/checks/${provider}/1/`,
    headers: {
      'content-type': 'application/json',
      'x-kestrel-signature': signWebhook(secret, nowSeconds(), body),
    },
    payload: body,
  });
};
const inboxRows = async () =>
  Number(
    (
      await t.owner((tx) =>
        tx.execute<{ n: number }>(sql`select count(*)::int as n from check_callback_inbox`),
      )
    )[0]?.n,
  );

describe('the simulators’ secrets (default configuration)', () => {
  it('refuses a callback or webhook signed with the secrets the source used to ship', async () => {
    expect((await callback('dbs-basic', 'kestrel-simulator-dbs-basic')).statusCode).toBe(401);
    expect((await callback('ebulk', 'kestrel-simulator-ebulk')).statusCode).toBe(401);
    const event = JSON.stringify({
      id: 'evt_forged',
      object: 'event',
      type: 'payment_intent.succeeded',
      created: nowSeconds(),
      data: { object: { id: 'pi_forged', object: 'payment_intent', status: 'succeeded' } },
    });
    const webhook = await t.app.inject({
      method: 'POST',
      url: '/webhooks/payments/',
      headers: {
        'content-type': 'application/json',
        'stripe-signature': signWebhook('whsec_kestrel_simulator', nowSeconds(), event),
      },
      payload: event,
    });
    expect(webhook.statusCode).toBe(401);
    expect(await inboxRows()).toBe(0);
  });

  it('keeps a random secret per installation, which the simulators sign with', async () => {
    const mine = await storedServerSecrets(t);
    const theirs = await storedServerSecrets(other);
    for (const name of SIMULATOR_SECRETS) {
      expect(mine[name]).toMatch(/^[0-9a-f]{64}$/);
      expect(theirs[name]).toMatch(/^[0-9a-f]{64}$/);
      expect(mine[name]).not.toBe(theirs[name]);
    }
    expect(new Set(SIMULATOR_SECRETS.map((n) => mine[n])).size).toBe(SIMULATOR_SECRETS.length);
    // the installation's secret is the one its callbacks are verified with
    // (past the signature to the activity, of which there is none with this id)
    const genuine = await callback('dbs-basic', mine['simulator:dbs-basic'] ?? '');
    expect(genuine.statusCode).toBe(404);
    // another installation's secret is refused here
    expect((await callback('ebulk', theirs['simulator:ebulk'] ?? '')).statusCode).toBe(401);
  });

  it('keeps the same secrets across a restart on the same database', async () => {
    const before = await storedServerSecrets(t);
    const restarted = await buildApp({ db: t.db, clock: new ManualClock(t.clock.now()) });
    try {
      await restarted.ready();
      expect(await storedServerSecrets(t)).toEqual(before);
      for (const name of [...SIMULATOR_SECRETS, 'anonymous_csrf']) {
        expect(restarted.deps.secrets.get(name)).toBe(before[name]);
      }
      // the identity simulator's callbacks, signed by one process, verify in another
      const body = JSON.stringify({ event: 'nothing' });
      const signature = signIdvCallback(before['simulator:idv'] ?? '', body, t.clock.now());
      const res = await restarted.inject({
        method: 'POST',
        url: '/callbacks/checks/idv/1/',
        headers: { 'content-type': 'application/json', [IDV_SIGNATURE_HEADER]: signature },
        payload: body,
      });
      // signed right: refused for its shape (400), not its signature (401)
      expect(res.statusCode).toBe(400);
    } finally {
      await restarted.close();
    }
  });
});
