import { describe, expect, it } from 'vitest';
import { errorText, refundStatusText } from './api';

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

describe("a refund's status", () => {
  it('says Pending plainly while the provider has not answered, and why a refund failed', () => {
    expect(refundStatusText({ status: 'pending', failure_message: null })).toBe(
      'Pending: the payments provider has not answered yet, it is asked again',
    );
    expect(refundStatusText({ status: 'succeeded', failure_message: null })).toBe('Refunded');
    expect(refundStatusText({ status: 'failed', failure_message: 'Refused.' })).toBe(
      'Failed (Refused.)',
    );
    expect(refundStatusText({ status: 'failed', failure_message: null })).toBe('Failed');
  });
});
