import { describe, expect, it } from 'vitest';
import {
  CARD_BRAND_LABELS,
  cardBrandOf,
  cardExpired,
  cardExpiryDisplay,
  cardLabel,
  paymentMethodCreate,
  paymentSettingsUpdate,
} from './payment-methods.js';

describe('payment method contracts', () => {
  it('names cards by brand and last four digits', () => {
    expect(cardBrandOf('visa')).toBe('visa');
    expect(cardBrandOf('mastercard')).toBe('mastercard');
    expect(cardBrandOf('cartes_bancaires')).toBe('unknown');
    expect(CARD_BRAND_LABELS.unknown).toBe('Card');
    expect(cardLabel('visa', '4242')).toBe('Visa ending 4242');
    expect(cardLabel('amex', '0005')).toBe('American Express ending 0005');
  });

  it('shows an expiry as MM/YY and knows when a card has expired', () => {
    expect(cardExpiryDisplay(4, 2031)).toBe('04/31');
    expect(cardExpiryDisplay(12, 2100)).toBe('12/00');
    // a card is good to the end of its expiry month
    expect(cardExpired(11, 2026, '2026-11-28')).toBe(false);
    expect(cardExpired(10, 2026, '2026-11-01')).toBe(true);
    expect(cardExpired(1, 2027, '2026-11-28')).toBe(false);
    expect(cardExpired(12, 2025, '2026-01-01')).toBe(true);
    expect(cardExpired(12, 2025, 'not a day')).toBe(false);
  });

  it('asks for a setup intent id the provider made', () => {
    expect(paymentMethodCreate.parse({ setup_intent: ' seti_sim_abc_123 ' })).toEqual({
      setup_intent: 'seti_sim_abc_123',
    });
    const missing = paymentMethodCreate.safeParse({});
    expect(missing.error?.issues[0]?.message).toBe('Required');
    const blank = paymentMethodCreate.safeParse({ setup_intent: ' ' });
    expect(blank.error?.issues.map((i) => i.message)).toEqual(['Required']);
    for (const bad of ['pi_123', 'seti_<script>', `seti_${'a'.repeat(100)}`]) {
      const r = paymentMethodCreate.safeParse({ setup_intent: bad });
      expect(r.error?.issues[0]?.message).toBe('This card setup was not found. Start again.');
    }
  });

  it('takes a billing email, or none', () => {
    expect(paymentSettingsUpdate.parse({ billing_email: ' accounts@acme.test ' })).toEqual({
      billing_email: 'accounts@acme.test',
    });
    expect(paymentSettingsUpdate.parse({ billing_email: '' })).toEqual({ billing_email: '' });
    expect(
      paymentSettingsUpdate.safeParse({ billing_email: 'nope' }).error?.issues[0]?.message,
    ).toBe('Invalid email');
    expect(
      paymentSettingsUpdate.safeParse({ billing_email: `${'a'.repeat(95)}@acme.test` }).error
        ?.issues[0]?.message,
    ).toBe('Max 100 characters');
    expect(paymentSettingsUpdate.safeParse({}).error?.issues[0]?.message).toBe('Required');
  });
});
