import { describe, expect, it } from 'vitest';
import { NAME_MISMATCH_REASONS, nameMismatchLabel } from './name-mismatch.js';

describe('name mismatch reasons', () => {
  it('lists the four reasons', () => {
    expect(NAME_MISMATCH_REASONS.map((r) => r.value)).toEqual([
      'document_previous_name',
      'document_short_name',
      'account_name_incorrect',
      'other',
    ]);
  });

  it.each([
    ['document_short_name', 'Shortened name on document(s)'],
    ['account_name_incorrect', 'Account name is not Full Legal Name'],
    ['mystery', 'mystery'],
  ])('%s', (value, label) => {
    expect(nameMismatchLabel(value)).toBe(label);
  });
});
