import { describe, expect, it } from 'vitest';
import { isMasked, MASK_BULLETS, maskIdentifier, maskOptional } from './mask.js';

describe('masked identifiers', () => {
  it('keeps at most the last 4 characters, never more than half, behind a fixed run of bullets', () => {
    expect(maskIdentifier('AB123456C')).toBe('•••••456C');
    expect(maskIdentifier('ab 12 34 56 c')).toBe('•••••456C');
    expect(maskIdentifier('BYRON812105AZ9AA')).toBe('•••••Z9AA');
    expect(maskIdentifier('W1234567X')).toBe('•••••567X');
    // short values show less (half at most), the length is not told
    expect(maskIdentifier('AB12')).toBe('•••••12');
    expect(maskIdentifier('A')).toBe(MASK_BULLETS);
  });

  it('leaves blanks blank and a masked value as it is; null stays null', () => {
    expect(maskIdentifier('')).toBe('');
    expect(maskIdentifier('   ')).toBe('');
    expect(maskIdentifier('•••••456C')).toBe('•••••456C');
    expect(isMasked(maskIdentifier('GB1234567'))).toBe(true);
    expect(isMasked('GB1234567')).toBe(false);
    expect(maskOptional(null)).toBeNull();
    expect(maskOptional(undefined)).toBeUndefined();
    expect(maskOptional('GB1234567')).toBe('•••••4567');
  });
});
