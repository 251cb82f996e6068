import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../platform/clock.js';
import { createTestPlatformClient } from './client.js';
import {
  ProviderError,
  type TestInvitationRequest,
  testCallbackSchema,
  testInvitationSchema,
} from './provider.js';
import { TEST_SIGNATURE_HEADER, testSignatureHeader, verifyTestSignature } from './signature.js';
import { outcomeOf, TestPlatformSimulator } from './simulator.js';

const DAY = 24 * 60 * 60 * 1000;
const signal = () => new AbortController().signal;

function request(email: string, reference = `ref-${email}`): TestInvitationRequest {
  return {
    reference,
    test_id: 'kestrel-knowledge-test',
    callback_url: 'http://localhost/callbacks/checks/test-platform/1/',
    candidate: { first_name: 'Ada', last_name: 'Lovelace', email },
  };
}

function simulator() {
  const clock = new ManualClock('2026-03-02T09:00:00Z');
  return { clock, sim: new TestPlatformSimulator({ clock, callbackSecret: 's', dayMs: DAY }) };
}

describe('the test platform simulator', () => {
  it('invites, then a simulated day later reports a pass with every part of the result', async () => {
    const { clock, sim } = simulator();
    const invited = await sim.invite(request('ada@example.test'), signal());
    expect(testInvitationSchema.parse(invited)).toEqual(invited);
    expect(invited).toMatchObject({ status: 'invited', result: null });
    expect(invited.test_url).toBe(`https://knowledge-test.example/take/${invited.invitation_id}`);
    clock.advance(DAY - 1);
    expect((await sim.invitation(invited.invitation_id, signal())).status).toBe('invited');
    clock.advance(1);
    const done = await sim.invitation(invited.invitation_id, signal());
    expect(done.status).toBe('completed');
    expect(done.result).toMatchObject({
      passed: true,
      percentage: 85,
      points_scored: 34,
      points_available: 40,
      duration_seconds: 1420,
      time_finished: '2026-03-03T09:00:00.000Z',
      time_started: '2026-03-03T08:36:20.000Z',
      intro: {
        first_name: 'Ada',
        last_name: 'Lovelace',
        email: 'ada@example.test',
        extra_info: 'Private hire driver',
        extra_info2: 'New licence application',
      },
      results_url: `https://knowledge-test.example/results/${invited.invitation_id}`,
    });
    expect(done.result?.category_results.map((c) => [c.name, c.percentage])).toEqual([
      ['Highway Code', 90],
      ['Safeguarding and equality', 88],
      ['Local knowledge', 75],
      ['Licensing conditions', 90],
    ]);
  });

  it('fails a +kt-fail candidate and never completes a +kt-never one', async () => {
    const { clock, sim } = simulator();
    const fail = await sim.invite(request('bo+kt-fail@example.test'), signal());
    const never = await sim.invite(request('cy+kt-never@example.test'), signal());
    clock.advance(30 * DAY);
    const failed = await sim.invitation(fail.invitation_id, signal());
    expect(failed.result).toMatchObject({ passed: false, percentage: 45, points_scored: 18 });
    expect(await sim.invitation(never.invitation_id, signal())).toMatchObject({
      status: 'invited',
      result: null,
    });
    expect(outcomeOf({ first_name: '', last_name: '', email: 'X+KT-FAIL@e.test' })).toBe('fail');
  });

  it('answers the same invitation for the same reference (idempotent)', async () => {
    const { clock, sim } = simulator();
    const a = await sim.invite(request('ada@example.test', 'kestrel-ca-7'), signal());
    clock.advance(60_000);
    const b = await sim.invite(request('ada@example.test', 'kestrel-ca-7'), signal());
    expect(b.invitation_id).toBe(a.invitation_id);
    const c = await sim.invite(request('ada@example.test', 'kestrel-ca-8'), signal());
    expect(c.invitation_id).not.toBe(a.invitation_id);
  });

  it('fails as the README says: flaky once, outage always, reject, timeout, unknown id', async () => {
    const { sim } = simulator();
    const flaky = request('f+kt-flaky@example.test');
    await expect(sim.invite(flaky, signal())).rejects.toMatchObject({
      retryable: true,
      status: 503,
    });
    expect((await sim.invite(flaky, signal())).status).toBe('invited');
    const outage = request('o+kt-outage@example.test');
    for (let i = 0; i < 2; i++) {
      await expect(sim.invite(outage, signal())).rejects.toMatchObject({ retryable: true });
    }
    await expect(sim.invite(request('r+kt-reject@example.test'), signal())).rejects.toMatchObject({
      retryable: false,
      status: 400,
    });
    const c = new AbortController();
    const pending = sim.invite(request('t+kt-timeout@example.test'), c.signal);
    c.abort();
    await expect(pending).rejects.toBeInstanceOf(ProviderError);
    await expect(sim.invitation('nonsense', signal())).rejects.toMatchObject({ status: 404 });
  });

  it('signs its callbacks; the signature holds only for that body, secret and time', async () => {
    const { clock, sim } = simulator();
    const inv = await sim.invite(request('ada@example.test'), signal());
    const cb = sim.callbackFor(inv.invitation_id, 'evt-1');
    const header = cb.headers[TEST_SIGNATURE_HEADER];
    const now = Math.floor(clock.now().getTime() / 1000);
    expect(testCallbackSchema.parse(JSON.parse(cb.body))).toMatchObject({
      event_id: 'evt-1',
      reference: inv.invitation_id,
      status: 'invited',
    });
    expect(verifyTestSignature('s', header, cb.body, now)).toBe(true);
    expect(verifyTestSignature('other', header, cb.body, now)).toBe(false);
    expect(verifyTestSignature('s', header, `${cb.body} `, now)).toBe(false);
    expect(verifyTestSignature('s', header, cb.body, now + 301)).toBe(false);
    expect(verifyTestSignature('s', undefined, cb.body, now)).toBe(false);
    expect(verifyTestSignature('s', 't=1,sha256=zz', cb.body, now)).toBe(false);
    expect(
      verifyTestSignature('s', testSignatureHeader('s', now - 299, cb.body), cb.body, now),
    ).toBe(true);
  });
});

describe('the test platform client', () => {
  it('posts the invitation with its key and idempotency key, and reads one', async () => {
    const calls: { url: string; init: RequestInit }[] = [];
    const answer = {
      invitation_id: 'INV-1',
      status: 'invited',
      test_url: 'https://tests.example/take/INV-1',
      invited_at: '2026-03-02T09:00:00Z',
      result: null,
    };
    const client = createTestPlatformClient({
      baseUrl: 'https://api.tests.example/',
      apiKey: 'key-1',
      fetch: async (url, init) => {
        calls.push({ url: String(url), init: init ?? {} });
        return new Response(JSON.stringify(answer), { status: 200 });
      },
    });
    expect(await client.invite(request('ada@example.test', 'kestrel-ca-3'), signal())).toEqual(
      answer,
    );
    await client.invitation('INV 1', signal());
    expect(calls.map((c) => [c.init.method, c.url])).toEqual([
      ['POST', 'https://api.tests.example/v1/invitations'],
      ['GET', 'https://api.tests.example/v1/invitations/INV%201'],
    ]);
    const headers = calls[0]?.init.headers as Record<string, string>;
    expect(headers['x-api-key']).toBe('key-1');
    expect(headers['idempotency-key']).toBe('kestrel-ca-3');
  });

  it('retries outages and rate limits, not refusals or malformed answers it cannot read', async () => {
    const answering = (status: number, body = '{}') =>
      createTestPlatformClient({
        baseUrl: 'https://api.tests.example',
        apiKey: 'k',
        fetch: async () => new Response(body, { status }),
      });
    await expect(answering(503).invitation('x', signal())).rejects.toMatchObject({
      retryable: true,
    });
    await expect(answering(429).invitation('x', signal())).rejects.toMatchObject({
      retryable: true,
    });
    await expect(answering(401).invitation('x', signal())).rejects.toMatchObject({
      retryable: false,
      status: 401,
    });
    await expect(answering(200, '{"nope":1}').invitation('x', signal())).rejects.toMatchObject({
      message: 'The provider answered malformed data.',
    });
  });
});
