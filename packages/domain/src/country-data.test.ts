import { describe, expect, it } from 'vitest';
import { COUNTRIES, sortedCountries } from './countries.js';

/** Labels offered more than once in a list, with the codes that share each. */
function repeated(labels: Array<{ code: string; label: string }>): Record<string, string[]> {
  const byLabel = new Map<string, string[]>();
  for (const { code, label } of labels) byLabel.set(label, [...(byLabel.get(label) ?? []), code]);
  return Object.fromEntries([...byLabel].filter(([, codes]) => codes.length > 1));
}

describe('the country table', () => {
  it('offers every nationality once, so a person can tell which one they pick', () => {
    const offered = sortedCountries().map((c) => ({ code: c.code, label: c.nationality }));
    expect(repeated(offered)).toEqual({});
  });

  it('offers every country name once', () => {
    const offered = sortedCountries().map((c) => ({ code: c.code, label: c.name }));
    expect(repeated(offered)).toEqual({});
  });

  it.each([
    ['COG', 'Congolese (Congo)'],
    ['COD', 'Congolese (DRC)'],
    ['DMA', 'Dominican (Dominica)'],
    ['DOM', 'Dominican (Dominican Republic)'],
    ['USA', 'American'],
  ])('names the nationality of %s %s', (code, nationality) => {
    expect(COUNTRIES[code]?.nationality).toBe(nationality);
  });
});
