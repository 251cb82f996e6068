import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isoFromPg } from './json-sql.js';

/** PostgreSQL's UTC text of a timestamp with `digits` of fraction (it drops trailing zeros). */
function pgText(ms: number, micros: number): string {
  const d = new Date(ms);
  const base = d.toISOString().slice(0, 19).replace('T', ' ');
  const fraction =
    `${String(d.getUTCMilliseconds()).padStart(3, '0')}${String(micros).padStart(3, '0')}`.replace(
      /0+$/,
      '',
    );
  return `${base}${fraction ? `.${fraction}` : ''}+00`;
}

describe('isoFromPg', () => {
  it('writes what a Date of the same text would write', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: Date.UTC(1970, 0, 1), max: Date.UTC(9999, 11, 31) }),
        fc.integer({ min: 0, max: 999 }),
        (ms, micros) => {
          const text = pgText(ms, micros);
          expect(isoFromPg(text)).toBe(new Date(text).toISOString());
        },
      ),
    );
  });

  it('handles whole seconds and falls back to Date for other forms', () => {
    expect(isoFromPg('2026-03-04 05:06:07+00')).toBe('2026-03-04T05:06:07.000Z');
    expect(isoFromPg('2026-03-04 05:06:07.5+00')).toBe('2026-03-04T05:06:07.500Z');
    expect(isoFromPg('2026-03-04 06:06:07.891+01')).toBe('2026-03-04T05:06:07.891Z');
  });
});

describe('isoFromPg on malformed or unusual text', () => {
  it('agrees with Date wherever Date reads the text', () => {
    for (const text of [
      '2026-03-04 05:06:07.1234567+00',
      '2026-03-04 05:06:07.+00',
      '2026-03-04 05:06:07.12a+00',
      '2026-03-04T05:06:07.123+00',
      '2026-03-04 05:06:07.123+05',
      '12026-03-04 05:06:07+00',
    ]) {
      const date = new Date(text);
      if (Number.isNaN(date.getTime())) expect(() => isoFromPg(text)).toThrow(RangeError);
      else expect(isoFromPg(text)).toBe(date.toISOString());
    }
  });
});
