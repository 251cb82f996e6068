import { describe, expect, it } from 'vitest';
import { parseStatusCheck } from './client.js';
import { createUpdateServiceSimulator, SIMULATED_PRINT_DATE } from './simulator.js';

const query = (certificate_number: string) => ({
  certificate_number,
  surname: 'Smith',
  dob: '1990-01-01',
  organisation_name: 'Acme',
  employee_forename: 'Kestrel',
  employee_surname: 'Checks',
});

describe('the update service simulator', () => {
  const sim = createUpdateServiceSimulator();
  const signal = new AbortController().signal;

  it('answers the status the first digit names', async () => {
    expect(await sim.statusCheck(query('200000000001'), signal)).toEqual({
      result_type: 'SUCCESS',
      status: 'BLANK_NO_NEW_INFO',
      forename: 'SIMULATED',
      surname: 'SMITH',
      print_date: SIMULATED_PRINT_DATE,
    });
    expect((await sim.statusCheck(query('300000000001'), signal)).status).toBe(
      'NON_BLANK_NO_NEW_INFO',
    );
    expect((await sim.statusCheck(query('400000000001'), signal)).status).toBe('NEW_INFO');
    expect((await sim.statusCheck(query('500000000001'), signal)).status).toBe('UNDER_REVIEW');
    expect(await sim.statusCheck(query('100000000001'), signal)).toMatchObject({
      status: 'NO_MATCH_FOUND',
      forename: null,
      print_date: null,
    });
  });

  it('fails 9 (retryable), refuses others (not retryable), and times out 6', async () => {
    await expect(sim.statusCheck(query('900000000001'), signal)).rejects.toMatchObject({
      retryable: true,
    });
    await expect(sim.statusCheck(query('700000000001'), signal)).rejects.toMatchObject({
      retryable: false,
      status: 400,
    });
    const c = new AbortController();
    const p = sim.statusCheck(query('600000000001'), c.signal);
    c.abort();
    await expect(p).rejects.toMatchObject({ retryable: true });
  });

  it('fails 8 once (retryable), then answers blank', async () => {
    await expect(sim.statusCheck(query('800000000001'), signal)).rejects.toMatchObject({
      retryable: true,
      status: 503,
    });
    expect((await sim.statusCheck(query('800000000001'), signal)).status).toBe('BLANK_NO_NEW_INFO');
  });

  it('reads the real service’s XML answer', () => {
    const xml =
      '<statusCheckResult><statusCheckResultType>SUCCESS</statusCheckResultType><forename>ADA</forename><surname>SMITH</surname><printDate>2025-01-02</printDate><status>NEW_INFO</status></statusCheckResult>';
    expect(parseStatusCheck(xml)).toEqual({
      result_type: 'SUCCESS',
      status: 'NEW_INFO',
      forename: 'ADA',
      surname: 'SMITH',
      print_date: '2025-01-02',
    });
    expect(() => parseStatusCheck('<nope/>')).toThrow();
  });
});
