import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../platform/clock.js';
import type { DisclosureApplication } from '../dbs-basic/provider.js';
import { COUNTERSIGNATURE_REQUIRED } from '../dbs-basic/simulator.js';
import { createEbulkSimulator } from './simulator.js';

const DAY = 24 * 60 * 60 * 1000;
const signal = () => new AbortController().signal;

function application(
  surname: string,
  more: Partial<DisclosureApplication> = {},
): DisclosureApplication {
  return {
    idempotency_key: `key-${surname}`,
    level: 'basic',
    callback_url: 'http://localhost/callbacks/checks/dbs-basic/1/',
    applicant: {
      title: 'Ms',
      forename: 'Ada',
      middlename: '',
      surname,
      dob: '1990-01-01',
      gender: 'female',
      email: 'ada@example.test',
      phone_number: '',
      nin: '',
      nationality: 'GBR',
      birth_town: 'Leeds',
      birth_country: 'GBR',
      current_address: '1 High Street, Leeds, LS1 1AA',
    },
    workforce: null,
    barred_lists: [],
    purpose: null,
    position: null,
    top_up_payment: null,
    identity_verification: {
      basis: 'documents',
      route: 1,
      verified_by: 'Vera Verifier',
      verified_at: '2026-11-20T09:00:00.000Z',
      countersigned_by: 'Colin Counter',
      countersigned_at: '2026-11-20T10:00:00.000Z',
    },
    provider_configuration: null,
    ...more,
  };
}

describe('the e-bulk simulator', () => {
  const enhanced = (surname: string, lists: ('adult' | 'child')[]) =>
    application(surname, { level: 'enhanced', barred_lists: lists, workforce: 'CA' });

  it('refuses a standard or enhanced application without a verified identity and countersignature', async () => {
    const sim = createEbulkSimulator(new ManualClock(new Date('2026-11-20T00:00:00Z')), 'secret');
    const verified = {
      basis: 'online' as const,
      route: null,
      verified_by: 'Vera Verifier',
      verified_at: '2026-11-20T09:00:00.000Z',
      countersigned_by: null,
      countersigned_at: null,
    };
    for (const identity_verification of [null, verified]) {
      for (const level of ['standard', 'enhanced'] as const) {
        await expect(
          sim.submit(application('Clear', { level, identity_verification }), signal()),
        ).rejects.toMatchObject({
          message: COUNTERSIGNATURE_REQUIRED,
          retryable: false,
          status: 400,
        });
      }
    }
    const signed = {
      ...verified,
      countersigned_by: 'Colin Counter',
      countersigned_at: verified.verified_at,
    };
    expect(
      (
        await sim.submit(
          application('Clear', { level: 'standard', identity_verification: signed }),
          signal(),
        )
      ).status,
    ).toBeTruthy();
  });

  it('searches the barred lists on day 2 and local police records before printing on day 7', async () => {
    const clock = new ManualClock('2026-03-02T09:00:00Z');
    const sim = createEbulkSimulator(clock, 's');
    const { reference } = await sim.submit(enhanced('Smith', ['child', 'adult']), signal());
    clock.advance(2 * DAY);
    const day2 = await sim.status(reference, signal());
    expect(day2).toMatchObject({ stage: 3, status: 'in-progress' });
    expect(day2.barred_lists).toEqual([
      { list: 'adult', search_date: '2026-03-04', result: 'no-match' },
      { list: 'child', search_date: '2026-03-04', result: 'no-match' },
    ]);
    expect(day2.certificate_assembled_date).toBeNull();
    clock.advance(3 * DAY);
    const day5 = await sim.status(reference, signal());
    expect(day5).toMatchObject({ stage: 4, certificate_assembled_date: null });
    clock.advance(DAY);
    // assembled on day 6, after the local police records, the day before printing
    expect(await sim.status(reference, signal())).toMatchObject({
      stage: 4,
      status: 'in-progress',
      certificate_assembled_date: '2026-03-08',
      certificate_despatched_date: null,
    });
    clock.advance(DAY);
    const done = await sim.status(reference, signal());
    expect(done).toMatchObject({
      status: 'complete',
      stage: 5,
      certificate_assembled_date: '2026-03-08',
      certificate_despatched_date: '2026-03-09',
    });
    expect(done.disclosure).toMatchObject({ issue_date: '2026-03-09', manual_certificate: false });
    expect(done.e_number).toMatch(/^E\d{9}$/);
  });

  it('issues a MANUAL applicant a manual certificate at standard and enhanced level', async () => {
    const clock = new ManualClock('2026-03-02T09:00:00Z');
    const sim = createEbulkSimulator(clock, 's');
    const standard = await sim.submit(
      application('Manual', { level: 'standard', idempotency_key: 'manual-standard' }),
      signal(),
    );
    const withLists = await sim.submit(enhanced('Manual', ['adult']), signal());
    expect(standard.reference).toMatch(/^EB-CSnm-/);
    expect(withLists.reference).toMatch(/^EB-CEam-/);
    clock.advance(3 * DAY);
    expect(await sim.status(standard.reference, signal())).toMatchObject({
      status: 'complete',
      certificate_assembled_date: '2026-03-04',
      certificate_despatched_date: '2026-03-05',
      disclosure: { status: 'clear', manual_certificate: true },
    });
    clock.advance(4 * DAY);
    const e = await sim.status(withLists.reference, signal());
    expect(e).toMatchObject({
      status: 'complete',
      certificate_despatched_date: '2026-03-09',
      disclosure: { status: 'clear', manual_certificate: true },
    });
    expect(e.barred_lists).toEqual([
      { list: 'adult', search_date: '2026-03-04', result: 'no-match' },
    ]);
  });

  it('matches a BARRED applicant on the first list searched, only when lists are searched', async () => {
    const clock = new ManualClock('2026-03-02T09:00:00Z');
    const sim = createEbulkSimulator(clock, 's');
    const barred = await sim.submit(enhanced('Barred', ['adult']), signal());
    const unlisted = await sim.submit(
      application('Barred', { level: 'standard', idempotency_key: 'other' }),
      signal(),
    );
    clock.advance(8 * DAY);
    const b = await sim.status(barred.reference, signal());
    expect(b.disclosure?.status).toBe('barred-list-match');
    expect(b.barred_lists[0]).toMatchObject({ list: 'adult', result: 'match' });
    expect((await sim.status(unlisted.reference, signal())).disclosure?.status).toBe('clear');
  });

  it('refuses a basic check', async () => {
    const sim = createEbulkSimulator(new ManualClock('2026-03-02T09:00:00Z'), 's');
    await expect(sim.submit(application('Smith'), signal())).rejects.toMatchObject({ status: 400 });
  });
});
