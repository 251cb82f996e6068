import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../platform/clock.js';
import { IdvApiClient } from './client.js';
import { IdvCallbackError, IdvProviderError, type IdvSessionRequest } from './provider.js';
import { signIdvCallback, verifyIdvCallback } from './signature.js';
import { IdvSimulator, SIMULATED_ADDRESS, simulatedOutcome } from './simulator.js';

const SECRET = 'test-secret';
const request = (surname: string, dob: string | null = '1985-12-10'): IdvSessionRequest => ({
  reference: 'case-7',
  person: { forename: 'Ada', middlename: 'Zoe', surname, dob },
  level: 'high',
  returnUrl: 'http://k.test/s/case-portal/7/online-idv',
  callbackUrl: 'http://k.test/webhooks/idv/',
});

function simulator() {
  const clock = new ManualClock('2026-11-24T10:00:00Z');
  return {
    clock,
    sim: new IdvSimulator({ baseUrl: 'http://k.test', callbackSecret: SECRET, clock }),
  };
}

describe('the identity check simulator', () => {
  it('opens a session at its own page and has no result until the person finishes', async () => {
    const { sim } = simulator();
    const s = await sim.createSession(request('Byron'));
    expect(s.id).toMatch(/^sim_[0-9a-f]{24}$/);
    expect(s.url).toBe(`http://k.test/idv-simulator/sessions/${s.id}/`);
    expect(await sim.fetchResult(s.id)).toBeNull();
    await expect(sim.fetchResult('sim_unknown')).rejects.toBeInstanceOf(IdvProviderError);
  });

  it('passes by default, verifying the names, date of birth and a current address', async () => {
    const { sim } = simulator();
    const s = await sim.createSession(request('Byron'));
    const { result } = sim.finish(s.id);
    expect(result).toMatchObject({
      session: s.id,
      reference: 'case-7',
      outcome: 'passed',
      ibv_verified: false,
      level_of_assurance: 'high',
      schemes: [
        { name: 'DBS', requirements_met: true },
        { name: 'RTW', requirements_met: true },
      ],
      person: { forename: 'Ada', middlename: 'Zoe', surname: 'Byron', dob: '1985-12-10' },
      address: { ...SIMULATED_ADDRESS, from_date: '2023-11-24' },
      failure_reason: null,
      completed_at: '2026-11-24T10:00:00.000Z',
    });
    expect(await sim.fetchResult(s.id)).toEqual(result);
  });

  it.each([
    ['Fail', 'failed', 'Your identity document could not be verified.'],
    ['fail smith', 'failed', 'Your identity document could not be verified.'],
    ['MISMATCH', 'failed', 'The name on your identity document does not match the name you gave.'],
    ['Bankes', 'passed-bank', null],
    ['NoRTW', 'passed-no-rtw', null],
    ['Stone', 'passed', null],
  ])('surname %s gives %s', (surname, outcome, reason) => {
    expect(simulatedOutcome({ forename: 'A', middlename: '', surname, dob: null })).toEqual({
      outcome,
      reason,
    });
  });

  it('fails with a reason and no data; bank verification sets ibv; NoRTW leaves RTW unmet', async () => {
    const { sim } = simulator();
    const failed = sim.finish((await sim.createSession(request('Failure'))).id).result;
    expect(failed).toMatchObject({ outcome: 'failed', person: null, address: null });
    expect(failed.failure_reason).toBe('Your identity document could not be verified.');
    const bankId = (await sim.createSession(request('Banks'))).id;
    const bank = sim.finish(bankId).result;
    expect(bank).toMatchObject({
      outcome: 'passed',
      ibv_verified: true,
      ibv_session: `ibv_${bankId.slice(4)}`,
    });
    const noRtw = sim.finish((await sim.createSession(request('NoRTW', null))).id).result;
    expect(noRtw.schemes).toEqual([
      { name: 'DBS', requirements_met: true },
      { name: 'RTW', requirements_met: false },
    ]);
    expect(noRtw.person?.dob).toBe('1990-01-01');
  });

  it('finishing twice is a redelivery: the same event and result', async () => {
    const { sim, clock } = simulator();
    const id = (await sim.createSession(request('Byron'))).id;
    const first = sim.finish(id);
    clock.advance(60_000);
    const second = sim.finish(id);
    expect(second.result).toEqual(first.result);
    expect(JSON.parse(second.body).id).toBe(JSON.parse(first.body).id);
  });

  it('signs its callbacks so that they verify, and only with the right secret and time', async () => {
    const { sim, clock } = simulator();
    const id = (await sim.createSession(request('Byron'))).id;
    const { body, signature, result } = sim.finish(id);
    expect(signature).toMatch(/^t=\d+,v1=[0-9a-f]{64}$/);
    expect(sim.verifyCallback(body, signature, clock.now())).toEqual({ id: `evt_${id}`, result });
    const refused = (b: string, sig: string | undefined, at = clock.now(), secret = SECRET) =>
      expect(() => verifyIdvCallback(secret, b, sig, at)).toThrow(IdvCallbackError);
    refused(body, undefined);
    refused(body, signature, clock.now(), 'other-secret');
    refused(body.replace('Byron', 'Evil'), signature);
    refused(body, signature, new Date(clock.now().getTime() + 6 * 60_000));
    refused(body, signature.replace(/^t=\d+/, 't=1'));
    refused('{"id":"x"}', signIdvCallback(SECRET, '{"id":"x"}', clock.now()));
    refused(body, signature, clock.now(), '');
    // within five minutes it still verifies
    expect(() =>
      verifyIdvCallback(SECRET, body, signature, new Date(clock.now().getTime() + 4 * 60_000)),
    ).not.toThrow();
  });
});

describe('the real client', () => {
  it('opens sessions and reads results with the shapes of client.ts', async () => {
    const calls: { url: string; init: RequestInit | undefined }[] = [];
    const answers: unknown[] = [
      { id: 'ses_1', url: 'https://idv.example/s/ses_1' },
      { id: 'ses_1', status: 'pending' },
      { id: 'ses_1', status: 'failed', result: { bad: true } },
    ];
    const fakeFetch: typeof fetch = async (url, init) => {
      calls.push({ url: String(url), init });
      return new Response(JSON.stringify(answers.shift()), { status: 200 });
    };
    const client = new IdvApiClient({
      apiUrl: 'https://idv.example/',
      apiKey: 'k',
      callbackSecret: SECRET,
      fetch: fakeFetch,
    });
    expect(await client.createSession(request('Byron'))).toEqual({
      id: 'ses_1',
      url: 'https://idv.example/s/ses_1',
    });
    expect(calls[0]?.url).toBe('https://idv.example/v1/sessions');
    expect(new Headers(calls[0]?.init?.headers).get('authorization')).toBe('Bearer k');
    expect(JSON.parse(String(calls[0]?.init?.body))).toMatchObject({
      reference: 'case-7',
      person: { given_names: 'Ada', family_name: 'Byron', date_of_birth: '1985-12-10' },
    });
    expect(await client.fetchResult('ses_1')).toBeNull();
    await expect(client.fetchResult('ses_1')).rejects.toBeInstanceOf(IdvProviderError);
    const failing = new IdvApiClient({
      apiUrl: 'https://idv.example',
      apiKey: 'k',
      callbackSecret: SECRET,
      fetch: async () => new Response('', { status: 500 }),
    });
    await expect(failing.createSession(request('Byron'))).rejects.toBeInstanceOf(IdvProviderError);
  });
});
