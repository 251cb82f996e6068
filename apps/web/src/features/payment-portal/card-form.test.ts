import { PAYMENT_TEXTS } from '@kestrel/domain';
import { describe, expect, it } from 'vitest';
import { luhn, validateCard } from './card-form';

const today = new Date('2026-11-24T12:00:00Z');
const good = { name: 'Ada Smith', number: '4242 4242 4242 4242', expiry: '12/34', cvc: '123' };

describe('the card form', () => {
  it('accepts a complete card', () => {
    expect(validateCard(good, today)).toEqual({});
    expect(validateCard({ ...good, expiry: '11/26', cvc: '1234' }, today)).toEqual({});
  });

  it('names each missing field', () => {
    expect(validateCard({ name: ' ', number: '', expiry: '', cvc: '' }, today)).toEqual({
      name: PAYMENT_TEXTS.nameRequired,
      number: PAYMENT_TEXTS.cardNumberRequired,
      expiry: PAYMENT_TEXTS.expiryRequired,
      cvc: PAYMENT_TEXTS.cvcRequired,
    });
  });

  it('refuses a wrong card number, a past or impossible expiry and a bad code', () => {
    expect(validateCard({ ...good, number: '4242 4242 4242 4241' }, today).number).toBe(
      PAYMENT_TEXTS.cardNumberInvalid,
    );
    expect(validateCard({ ...good, number: '4242abcd' }, today).number).toBe(
      PAYMENT_TEXTS.cardNumberInvalid,
    );
    expect(validateCard({ ...good, expiry: '10/26' }, today).expiry).toBe(
      PAYMENT_TEXTS.expiryInvalid,
    );
    expect(validateCard({ ...good, expiry: '13/30' }, today).expiry).toBe(
      PAYMENT_TEXTS.expiryInvalid,
    );
    expect(validateCard({ ...good, expiry: '1230' }, today).expiry).toBe(
      PAYMENT_TEXTS.expiryInvalid,
    );
    expect(validateCard({ ...good, cvc: '12' }, today).cvc).toBe(PAYMENT_TEXTS.cvcInvalid);
  });

  it("checks Luhn's digit", () => {
    expect(luhn('4000000000003220')).toBe(true);
    expect(luhn('4000000000003221')).toBe(false);
  });
});
