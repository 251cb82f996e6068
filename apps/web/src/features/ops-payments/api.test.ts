import { describe, expect, it } from 'vitest';
import { errorText } from './api';

describe("the refund's error text", () => {
  it("reads the API's field errors, nested errors, or its detail", () => {
    expect(errorText({ amount_pence: ['At most £2.00 is left to refund.'] }, 'amount_pence')).toBe(
      'At most £2.00 is left to refund.',
    );
    expect(errorText({ errors: { amount_pence: 'Too much.' } }, 'amount_pence')).toBe('Too much.');
    expect(errorText({ detail: 'Not found.' }, 'amount_pence')).toBe('Not found.');
    expect(errorText({}, 'amount_pence')).toBeNull();
  });
});
