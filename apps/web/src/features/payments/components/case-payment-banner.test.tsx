import type { CasePaymentOut, Permission } from '@kestrel/domain';
import { fireEvent, screen, waitFor } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { resetSession, setSession } from '../../../lib/session/session-store';
import { mockFetch } from '../../../test/fetch-mock';
import { renderWithProviders } from '../../../test/render';
import { product, productIn } from '../../../test/sessions';
import { CasePaymentBanner } from './case-payment-banner';

const needed: CasePaymentOut = {
  state: 'payment_needed',
  state_display: 'Payment needed',
  amount_pence: 450,
  amount_display: '£4.50',
  reason: 'Your card has insufficient funds.',
  product_payment: 12,
  attempts: 1,
  card: 'Visa ending 9995',
};

const show = (payment: CasePaymentOut | null, permissions: Permission[]) => {
  setSession(productIn(product({ session_permissions: permissions })));
  return renderWithProviders(
    <MemoryRouter>
      <CasePaymentBanner caseId={7} payment={payment} />
    </MemoryRouter>,
  );
};

afterEach(() => {
  resetSession();
  vi.unstubAllGlobals();
});

describe('the case payment banner', () => {
  it('says why payment is needed, links to the payment, retries with the permission', async () => {
    const calls = mockFetch(() => ({ status: 200, body: { ...needed, state: 'paid' } }));
    show(needed, ['cases.view_case', 'payments.add_payment']);
    expect(screen.getByText('Payment needed')).toBeTruthy();
    expect(screen.getByText(/Your card has insufficient funds\./)).toBeTruthy();
    expect(screen.getByText(/until £4\.50 is paid/)).toBeTruthy();
    expect(screen.getByRole('link', { name: 'See the payment' }).getAttribute('href')).toBe(
      '/payments/product-12',
    );
    fireEvent.click(screen.getByRole('button', { name: 'Retry payment' }));
    await waitFor(() =>
      expect(calls.map((c) => `${c.method} ${c.url}`)).toContain(
        'POST /api/cases/7/retry-payment/',
      ),
    );
  });

  it('offers no retry without payments.add_payment', () => {
    show(needed, ['cases.view_case']);
    expect(screen.getByText('Payment needed')).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Retry payment' })).toBeNull();
  });

  it('shows nothing for a case paid, being charged or not charged', () => {
    show({ ...needed, state: 'paid', reason: null }, ['payments.add_payment']);
    expect(screen.queryByTestId('case-payment-banner')).toBeNull();
    show({ ...needed, state: 'pending', reason: null }, ['payments.add_payment']);
    show(null, ['payments.add_payment']);
    expect(screen.queryByTestId('case-payment-banner')).toBeNull();
    expect(screen.queryByText('Payment needed')).toBeNull();
  });
});
