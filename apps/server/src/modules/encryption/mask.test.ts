import { describe, expect, it } from 'vitest';
import {
  isMasked,
  MASK_BULLETS,
  maskIdentifier,
  maskLicenceNumbers,
  maskOptional,
} from './mask.js';

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

  it('masks the driving licence numbers of a DVLA answer, a service check and a logged request, nothing else', () => {
    const n = 'MORGA753116SM9IJ';
    const dvla = {
      found: true,
      record: { driver: { drivingLicenceNumber: n, lastName: 'MORGA' }, licence: { type: 'Full' } },
    };
    expect(maskLicenceNumbers(dvla)).toEqual({
      found: true,
      record: {
        driver: { drivingLicenceNumber: '•••••M9IJ', lastName: 'MORGA' },
        licence: { type: 'Full' },
      },
    });
    const events = [
      { type: 'request', body: { licence_number: n, reference: 'r1' } },
      { type: 'answer', body: { licence: { number: n, issue_number: '17' }, driver_id: 'DV-1' } },
    ];
    expect(JSON.stringify(maskLicenceNumbers(events))).not.toContain(n);
    expect(maskLicenceNumbers(events)[1]).toEqual({
      type: 'answer',
      body: { licence: { number: '•••••M9IJ', issue_number: '17' }, driver_id: 'DV-1' },
    });
    // a number outside a licence, a card number, and values that are no strings stay
    const other = { number: n, tacho_cards: [{ card_number: n }], licence: null, n: 3 };
    expect(maskLicenceNumbers(other)).toEqual(other);
    // masked once: masking again changes nothing
    expect(maskLicenceNumbers(maskLicenceNumbers(dvla))).toEqual(maskLicenceNumbers(dvla));
  });
});
