import { describe, expect, it } from 'vitest';
import { employerNameOf } from './segments.js';

describe('employerNameOf', () => {
  it("takes the segment's employer name when the configuration says 'segment'", () => {
    const config = { employer_name_source: 'segment' as const, employer_name: 'Typed Ltd' };
    expect(employerNameOf(config, 'Acme North Ltd')).toBe('Acme North Ltd');
    expect(employerNameOf(config, '  ')).toBeNull();
    expect(employerNameOf(config, null)).toBeNull();
  });

  it("takes the typed name when it says 'custom', and none without a source", () => {
    expect(
      employerNameOf({ employer_name_source: 'custom', employer_name: ' Typed Ltd ' }, 'Seg'),
    ).toBe('Typed Ltd');
    expect(employerNameOf({ employer_name_source: 'custom' }, 'Seg')).toBeNull();
    expect(employerNameOf({ employer_name: 'Typed Ltd' }, 'Seg')).toBeNull();
  });
});
