import { describe, expect, it } from 'vitest';
import { paymentIntentCreate, paymentIntentPublicId, paymentPortalPath } from './payments.js';

describe('payments contracts', () => {
  it('links an intent to its payment page, its id encoded', () => {
    expect(paymentPortalPath('pit_abcdefghijklmnopqrstuvwx')).toBe(
      '/payment-portal/pit_abcdefghijklmnopqrstuvwx',
    );
    expect(paymentPortalPath('a/b')).toBe('/payment-portal/a%2Fb');
  });

  it('accepts only public intent ids of their shape', () => {
    expect(paymentIntentPublicId.safeParse('pit_abcdefghijklmnopqrstuv-_').success).toBe(true);
    expect(paymentIntentPublicId.safeParse('pi_123').success).toBe(false);
  });

  it('creates an intent for an activity, with the spec message when it is missing', () => {
    expect(paymentIntentCreate.safeParse({ case_activity: 4 }).success).toBe(true);
    // past PostgreSQL's integer: refused as no such object, not a database error (a 500, fuzz)
    expect(paymentIntentCreate.safeParse({ case_activity: 2147483648 }).success).toBe(false);
    const missing = paymentIntentCreate.safeParse({});
    expect(missing.success).toBe(false);
    expect(missing.error?.issues[0]?.message).toBe('Required');
  });
});
