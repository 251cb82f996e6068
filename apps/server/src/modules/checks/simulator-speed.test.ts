import { describe, expect, it } from 'vitest';
import { randomSecrets } from '../../../test/helpers.js';
import { ManualClock } from '../../platform/clock.js';
import { readChecksConfig } from './config.js';
import { ebulkProvider } from './disclosure/providers.js';
import { createCheckEngine, pollSecondsOf, providerOf } from './providers.js';
import { CHECK_PROVIDER_DEFINITIONS } from './registry.js';

// The simulated providers' speed (CHECKS_SIMULATOR_DAY_SECONDS): the same simulators and the
// same engine at any speed; a shorter simulated day only shortens their stages and the polls.
const signal = () => new AbortController().signal;

describe('the check engine at demo speed', () => {
  it('polls the simulators as often as their day is shorter, a real provider as ever', () => {
    const config = readChecksConfig(
      { EBULK_API_URL: 'https://ebulk.example', EBULK_API_KEY: 'k' },
      randomSecrets(),
      10,
    );
    const engine = createCheckEngine({ clock: new ManualClock() }, config);
    // six hours of a simulated day of 10 s: every 3 s (rounded up from 2.5)
    expect(pollSecondsOf(engine, 'dbs-basic')).toBe(3);
    expect(pollSecondsOf(engine, 'ebulk')).toBe(6 * 60 * 60);
    const real = createCheckEngine(
      { clock: new ManualClock() },
      readChecksConfig({}, randomSecrets()),
    );
    for (const p of CHECK_PROVIDER_DEFINITIONS) expect(pollSecondsOf(real, p.name)).toBe(21_600);
  });

  it('gives its simulators the configured day: an enhanced check answers in 70 s', async () => {
    const clock = new ManualClock('2026-05-04T10:00:00Z');
    const engine = createCheckEngine({ clock }, readChecksConfig({}, randomSecrets(), 10));
    const ebulk = providerOf(engine, ebulkProvider);
    const answer = await ebulk.submit(
      {
        idempotency_key: 'speed-1',
        level: 'enhanced',
        callback_url: 'http://localhost/cb/',
        applicant: {
          title: 'Mr',
          forename: 'Ed',
          middlename: '',
          surname: 'Quick',
          dob: '1990-01-01',
          gender: 'male',
          email: 'ed@example.test',
          phone_number: '',
          nin: '',
          nationality: 'GBR',
          birth_town: 'York',
          birth_country: 'GBR',
          current_address: '1 High Street, York, YO1 1AA',
        },
        workforce: 'A',
        barred_lists: ['adult'],
        purpose: null,
        position: null,
        top_up_payment: null,
        identity_verification: {
          basis: 'documents',
          route: 1,
          verified_by: 'V',
          verified_at: '2026-05-04T09:00:00.000Z',
          countersigned_by: 'C',
          countersigned_at: '2026-05-04T09:30:00.000Z',
        },
        provider_configuration: null,
      },
      signal(),
    );
    clock.advance(69_999);
    expect((await ebulk.status(answer.reference, signal())).status).toBe('in-progress');
    clock.advance(1);
    const done = await ebulk.status(answer.reference, signal());
    expect(done).toMatchObject({ status: 'complete', disclosure: { status: 'clear' } });
  });
});
