import { PAYMENT_TEXTS } from '@kestrel/domain';

/** The card details the payment page collects (the provider sees them, Kestrel never stores them). */
export interface CardValues {
  name: string;
  number: string;
  expiry: string;
  cvc: string;
}

export type CardField = keyof CardValues;
export type CardErrors = Partial<Record<CardField, string>>;

/** The order the error summary lists fields in (the order of the form). */
export const CARD_FIELDS: readonly CardField[] = ['name', 'number', 'expiry', 'cvc'];

export const digitsOf = (s: string) => s.replace(/[\s-]/g, '');

/** Luhn's check digit test (every card number passes it). */
export function luhn(number: string): boolean {
  let sum = 0;
  let double = false;
  for (let i = number.length - 1; i >= 0; i--) {
    let d = number.charCodeAt(i) - 48;
    if (double) {
      d *= 2;
      if (d > 9) d -= 9;
    }
    sum += d;
    double = !double;
  }
  return sum % 10 === 0;
}

/** The form's errors (empty when it may be sent); `today` decides whether an expiry has passed. */
export function validateCard(v: CardValues, today: Date): CardErrors {
  const errors: CardErrors = {};
  if (!v.name.trim()) errors.name = PAYMENT_TEXTS.nameRequired;
  const number = digitsOf(v.number);
  if (!number) errors.number = PAYMENT_TEXTS.cardNumberRequired;
  else if (!/^\d{12,19}$/.test(number) || !luhn(number))
    errors.number = PAYMENT_TEXTS.cardNumberInvalid;
  const expiry = v.expiry.trim();
  const m = /^(\d{2})\s*\/\s*(\d{2})$/.exec(expiry);
  if (!expiry) errors.expiry = PAYMENT_TEXTS.expiryRequired;
  else if (!m) errors.expiry = PAYMENT_TEXTS.expiryInvalid;
  else {
    const month = Number(m[1]);
    const year = 2000 + Number(m[2]);
    const thisMonth = today.getUTCFullYear() * 12 + today.getUTCMonth();
    if (month < 1 || month > 12 || year * 12 + month - 1 < thisMonth) {
      errors.expiry = PAYMENT_TEXTS.expiryInvalid;
    }
  }
  const cvc = v.cvc.trim();
  if (!cvc) errors.cvc = PAYMENT_TEXTS.cvcRequired;
  else if (!/^\d{3,4}$/.test(cvc)) errors.cvc = PAYMENT_TEXTS.cvcInvalid;
  return errors;
}

/**
 * A link the provider gave (its 3-D Secure page), if the page may go there: a path of this site
 * (the simulator's pages, `/simulator/payments/...`) or an `https:` address (Stripe's). Anything
 * else is refused: `javascript:` and other schemes, plain `http:`, and what only looks like a
 * path but leaves the site (`//host`, `/\host`, a tab between the slashes).
 */
export function safeUrl(url: string): string | null {
  if (url.startsWith('/')) {
    try {
      const here = window.location.origin;
      return new URL(url, here).origin === here ? url : null;
    } catch {
      return null;
    }
  }
  try {
    const u = new URL(url);
    return u.protocol === 'https:' ? u.href : null;
  } catch {
    return null;
  }
}
