import { isValidPhoneNumber } from 'libphonenumber-js';
import { describe, expect, it } from 'vitest';
import { BRAND_DETAILS } from './brands.js';
import { formatPhone, isValidPhone, normalisePhone, PHONE_HINT } from './phone.js';
import { phoneOrBlankSchema, phoneSchema } from './text-rules.js';

describe('phone numbers', () => {
  it.each([
    ['07911 123456', '+447911123456'],
    ['+44 7911 123456', '+447911123456'],
    ['(0161) 496-0732', '+441614960732'],
    ['+33 1 42 68 53 00', '+33142685300'],
    ['0033 1 42 68 53 00', '+33142685300'],
  ])('store %s as E.164 %s', (raw, e164) => {
    expect(normalisePhone(raw)).toBe(e164);
  });

  it.each(['+44 7911 12345', '12', 'phone', '07700 900123'])('refuse %s', (raw) => {
    expect(normalisePhone(raw)).toBeNull();
    expect(isValidPhone(raw)).toBe(false);
  });

  it.each([
    ['+447911123456', '07911 123456'],
    ['+441134960519', '0113 496 0519'],
    ['+33142685300', '+33 1 42 68 53 00'],
    ['+12025550143', '+1 202 555 0143'],
    ['07911 123456', '07911 123456'],
    ['', ''],
    [null, ''],
    ['n/a', 'n/a'],
  ])('show %s as %s', (stored, shown) => {
    expect(formatPhone(stored)).toBe(shown);
  });

  it('the schemas store E.164 and keep the rule', () => {
    expect(phoneSchema.parse(' 07911 123456 ')).toBe('+447911123456');
    expect(phoneSchema.safeParse('+44 7911 12345').error?.issues[0]?.message).toBe(
      'Invalid number',
    );
    expect(phoneOrBlankSchema.parse('')).toBe('');
    expect(phoneOrBlankSchema.parse('0113 496 0519')).toBe('+441134960519');
    expect(phoneOrBlankSchema.safeParse('123').success).toBe(false);
  });

  it("keeps refusing a number libphonenumber-js knows as unallocated, with the spec's text", () => {
    expect(phoneSchema.safeParse('07911 654321').error?.issues[0]?.message).toBe('Invalid number');
  });

  it('the hint under phone fields says what a valid number looks like, with numbers that pass', () => {
    expect(PHONE_HINT).toMatch(/mobile or landline/);
    expect(PHONE_HINT).toMatch(/international number starting with \+/);
    const examples = PHONE_HINT.match(/\+?\d[\d ]{8,}\d/g) ?? [];
    expect(examples.length).toBeGreaterThanOrEqual(2);
    for (const example of examples) {
      expect(isValidPhoneNumber(example, 'GB'), example).toBe(true);
      expect(isValidPhone(example), example).toBe(true);
    }
  });

  it("every brand's support number passes the app's own rule", () => {
    for (const b of BRAND_DETAILS) expect(isValidPhone(b.contact.phone)).toBe(true);
  });
});
