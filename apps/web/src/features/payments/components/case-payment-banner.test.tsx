import { type CasePaymentOut, PAYMENT_METHOD_MESSAGES, type Permission } from '@kestrel/domain';
import { fireEvent, screen, waitFor } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { cases } from '../../../api/cases';
import { resetSession, setSession } from '../../../lib/session/session-store';
import { mockFetch } from '../../../test/fetch-mock';
import { renderWithProviders } from '../../../test/render';
import { product, productIn } from '../../../test/sessions';
import { CasePaymentBanner } from './case-payment-banner';

/** The case detail's use of the banner: the case read through its query, the banner fed from it. */
function CaseWithBanner() {
  const c = cases.useItem(7).data as { payment: CasePaymentOut | null } | undefined;
  return c ? <CasePaymentBanner caseId={7} payment={c.payment} /> : null;
}

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
    // saving a card retries it by itself (the card-retry job)
    expect(screen.getByText(PAYMENT_METHOD_MESSAGES.retriedWhenCardSaved)).toBeTruthy();
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

  it('shows nothing for a case paid or not charged', () => {
    show({ ...needed, state: 'paid', reason: null }, ['payments.add_payment']);
    expect(screen.queryByTestId('case-payment-banner')).toBeNull();
    show(null, ['payments.add_payment']);
    expect(screen.queryByTestId('case-payment-banner')).toBeNull();
    expect(screen.queryByText('Payment needed')).toBeNull();
  });

  it('says a charge is being taken and reads the case again until the decline shows', async () => {
    setSession(productIn(product({ session_permissions: ['payments.add_payment'] })));
    let reads = 0;
    const calls = mockFetch(() => {
      reads += 1;
      const payment =
        reads < 2 ? { ...needed, state: 'pending', state_display: 'Payment in progress' } : needed;
      return { status: 200, body: { id: 7, payment } };
    });
    renderWithProviders(
      <MemoryRouter>
        <CaseWithBanner />
      </MemoryRouter>,
    );
    await screen.findByText('Payment in progress');
    expect(screen.getByText(/Taking £4\.50 from Visa ending 9995/)).toBeTruthy();
    expect(screen.queryByTestId('case-payment-banner')).toBeNull();
    // no reload: the pending case is read again and the decline shows with its retry
    await screen.findByTestId('case-payment-banner', undefined, { timeout: 4000 });
    expect(screen.getByRole('button', { name: 'Retry payment' })).toBeTruthy();
    expect(calls.filter((c) => c.url.includes('/api/cases/7/')).length).toBeGreaterThanOrEqual(2);
  });
});
