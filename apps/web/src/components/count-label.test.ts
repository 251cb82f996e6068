import { describe, expect, it } from 'vitest';
import { countLabel, pageCount } from './count-label';

describe('countLabel', () => {
  it('says the exact total, singular for one', () => {
    expect(countLabel({ count: 0 }, 'case', 'cases')).toBe('0 cases');
    expect(countLabel({ count: 1 }, 'case', 'cases')).toBe('1 case');
    expect(countLabel({ count: 12 }, 'case', 'cases')).toBe('12 cases');
    expect(countLabel(undefined, 'case', 'cases')).toBe('0 cases');
  });

  it('says "10,000+" for a capped total', () => {
    expect(countLabel({ count: 10_000, count_capped: true }, 'case', 'cases')).toBe(
      '10,000+ cases',
    );
    expect(countLabel({ count: 10_000, count_capped: true }, 'result', 'results')).toBe(
      '10,000+ results',
    );
  });

  it('offers one page past a capped total', () => {
    expect(pageCount({ count: 30 }, 25)).toBe(2);
    expect(pageCount({ count: 0 }, 25)).toBe(1);
    expect(pageCount({ count: 10_000, count_capped: true }, 25)).toBe(401);
  });
});
