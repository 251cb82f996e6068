import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../platform/clock.js';
import { IdvApiClient } from './client.js';
import { IdvProviderError, type IdvSessionRequest } from './provider.js';
import { idvCallbackSchema, idvEngineCallbackSchema } from './result-schema.js';
import { signIdvCallback, verifyIdvSignature } from './signature.js';
import { IdvSimulator, SIMULATED_ADDRESS, simulatedOutcome } from './simulator.js';

const SECRET = 'test-secret';
const request = (surname: string, dob: string | null = '1985-12-10'): IdvSessionRequest => ({
  reference: 'case-7',
  person: { forename: 'Ada', middlename: 'Zoe', surname, dob },
  level: 'high',
  returnUrl: 'http://k.test/s/case-portal/7/online-idv',
  callbackUrl: 'http://k.test/callbacks/checks/idv/31/',
});

function simulator() {
  const clock = new ManualClock('2026-11-24T10:00:00Z');
  return {
    clock,
    sim: new IdvSimulator({ callbackSecret: SECRET, clock }),
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
      route: 'digital',
      name_mismatch: null,
      completed_at: '2026-11-24T10:00:00.000Z',
    });
    expect(await sim.fetchResult(s.id)).toEqual(result);
  });

  it.each([
    ['Fail', 'failed', 'Your identity document could not be verified.'],
    ['fail smith', 'failed', 'Your identity document could not be verified.'],
    ['MISMATCH', 'mismatch', 'document_previous_name'],
    ['Mismatch Short', 'mismatch', 'document_short_name'],
    ['MismatchAccount', 'mismatch', 'account_name_incorrect'],
    ['mismatchother', 'mismatch', 'other'],
    ['Bankes', 'passed-bank', null],
    ['Branchley', 'passed-branch', null],
    ['NoRTW', 'passed-no-rtw', null],
    ['NoDBS', 'passed-no-dbs', null],
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
    const branch = sim.finish((await sim.createSession(request('Branchley'))).id).result;
    expect(branch).toMatchObject({ outcome: 'passed', route: 'post-office', ibv_verified: false });
    expect(bank.route).toBe('bank');
  });

  it('passes a name mismatch with its reason and the documents name', async () => {
    const { sim } = simulator();
    const short = sim.finish((await sim.createSession(request('MismatchShort'))).id).result;
    expect(short).toMatchObject({
      outcome: 'passed',
      name_mismatch: { reason: 'document_short_name', document_name: 'Ada MismatchShort' },
    });
    const previous = sim.finish((await sim.createSession(request('Mismatch'))).id).result;
    expect(previous.name_mismatch).toEqual({
      reason: 'document_previous_name',
      document_name: 'Ada Maidenname',
    });
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
    const now = Math.floor(clock.now().getTime() / 1000);
    expect(verifyIdvSignature(SECRET, signature, body, now)).toBe(true);
    // the engine reads it as the event, the session it names and the result
    expect(idvEngineCallbackSchema.parse(JSON.parse(body))).toEqual({
      event_id: `evt_${id}`,
      reference: id,
      result,
    });
    const refused = (b: string, sig: string | undefined, at = now, secret = SECRET) =>
      expect(verifyIdvSignature(secret, sig, b, at)).toBe(false);
    refused(body, undefined);
    refused(body, signature, now, 'other-secret');
    refused(body.replace('Byron', 'Evil'), signature);
    refused(body, signature, now + 6 * 60);
    refused(body, signature.replace(/^t=\d+/, 't=1'));
    refused(body, signature, now, '');
    // a body signed right but of another shape is not a callback
    expect(idvCallbackSchema.safeParse({ id: 'x' }).success).toBe(false);
    expect(
      verifyIdvSignature(
        SECRET,
        signIdvCallback(SECRET, '{"id":"x"}', clock.now()),
        '{"id":"x"}',
        now,
      ),
    ).toBe(true);
    // within five minutes it still verifies
    expect(verifyIdvSignature(SECRET, signature, body, now + 4 * 60)).toBe(true);
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
      fetch: async () => new Response('', { status: 500 }),
    });
    await expect(failing.createSession(request('Byron'))).rejects.toMatchObject({
      retryable: true,
      status: 500,
    });
    const refusing = new IdvApiClient({
      apiUrl: 'https://idv.example',
      apiKey: 'k',
      fetch: async () => new Response('', { status: 401 }),
    });
    await expect(refusing.fetchResult('ses_1')).rejects.toMatchObject({ retryable: false });
  });
});
