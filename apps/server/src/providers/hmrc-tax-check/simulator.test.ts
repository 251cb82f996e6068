import { describe, expect, it } from 'vitest';
import { TAX_CHECK_VALID_DAYS } from './provider.js';
import { createTaxCheckSimulator } from './simulator.js';

const base = {
  first_name: 'Sam',
  last_name: 'Driver',
  dob: '1980-01-01',
  licence_type: 'driver',
  today: '2026-11-29',
};
const signal = new AbortController().signal;

describe('HMRC tax check simulator', () => {
  const sim = createTaxCheckSimulator();

  it('confirms a valid code, issued within 120 days, the same answer every time', async () => {
    const a = await sim.confirm({ ...base, code: 'HMRC12345' }, signal);
    expect(a.outcome).toBe('valid');
    expect(a.issued_on && a.issued_on <= base.today).toBe(true);
    expect(a.expires_on && a.expires_on >= base.today).toBe(true);
    expect(await sim.confirm({ ...base, code: 'HMRC12345' }, signal)).toEqual(a);
  });

  it('answers expired for a code starting with E, past its 120 days', async () => {
    const a = await sim.confirm({ ...base, code: 'E12345678' }, signal);
    expect(a.outcome).toBe('expired');
    const days = (Date.parse(base.today) - Date.parse(a.issued_on ?? '')) / 86_400_000;
    expect(days).toBeGreaterThan(TAX_CHECK_VALID_DAYS);
    expect(a.expires_on && a.expires_on < base.today).toBe(true);
  });

  it('does not know a code starting with X', async () => {
    expect(await sim.confirm({ ...base, code: 'X12345678' }, signal)).toEqual({
      outcome: 'unknown',
      issued_on: null,
      expires_on: null,
    });
  });

  it('fails (retryable) for Z and refuses a malformed code', async () => {
    await expect(sim.confirm({ ...base, code: 'Z12345678' }, signal)).rejects.toMatchObject({
      retryable: true,
    });
    await expect(sim.confirm({ ...base, code: 'ABC' }, signal)).rejects.toMatchObject({
      retryable: false,
    });
  });
});
