import { describe, expect, it } from 'vitest';
import {
  CUSTOMER_PAYMENT_KIND_LABELS,
  CUSTOMER_PAYMENT_STATE_LABELS,
  customerPaymentId,
  parseCustomerPaymentId,
} from './customer-payments.js';

describe('customer payments contracts', () => {
  it('names a payment by its kind and id, and reads the name back', () => {
    expect(customerPaymentId('product', 12)).toBe('product-12');
    expect(customerPaymentId('portal', 3)).toBe('portal-3');
    expect(parseCustomerPaymentId('product-12')).toEqual({ kind: 'product', id: 12 });
    expect(parseCustomerPaymentId('portal-3')).toEqual({ kind: 'portal', id: 3 });
  });

  it('reads nothing else as a payment id', () => {
    for (const raw of [
      '12',
      'product-0',
      'product-012',
      'refund-1',
      'portal-',
      'portal-2147483648',
      'product-1x',
    ]) {
      expect([raw, parseCustomerPaymentId(raw)]).toEqual([raw, null]);
    }
    expect(parseCustomerPaymentId('portal-2147483647')).toEqual({ kind: 'portal', id: 2147483647 });
  });

  it('calls each kind by what it paid for', () => {
    expect(CUSTOMER_PAYMENT_KIND_LABELS).toEqual({
      product: 'Check payment',
      portal: 'Subject payment',
    });
    expect(CUSTOMER_PAYMENT_STATE_LABELS.partially_refunded).toBe('Partly refunded');
  });
});
