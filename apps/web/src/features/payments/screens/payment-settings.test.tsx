import {
  MESSAGES,
  PAYMENT_METHOD_MESSAGES,
  type PaymentMethodOut,
  type PaymentSettingsOut,
  type Permission,
} from '@kestrel/domain';
import { fireEvent, screen, waitFor } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { resetSession, setSession } from '../../../lib/session/session-store';
import { type Call, mockFetch } from '../../../test/fetch-mock';
import { renderWithProviders } from '../../../test/render';
import { product, productIn } from '../../../test/sessions';
import PaymentSettings from './payment-settings';

const card = (id: number, last4: string, isDefault: boolean): PaymentMethodOut => ({
  id,
  brand: 'visa',
  brand_display: 'Visa',
  last4,
  exp_month: 12,
  exp_year: 2030,
  expiry_display: '12/30',
  expired: false,
  is_default: isDefault,
  label: `Visa ending ${last4}`,
  created_at: '2026-11-01T10:00:00Z',
});
const SETTINGS: PaymentSettingsOut = {
  billing_email: 'accounts@acme.test',
  invoiced: false,
  default_payment_method: 1,
};

function answer(call: Call) {
  const path = new URL(call.url, 'http://x').pathname;
  if (path === '/api/payment-methods/' && call.method === 'GET')
    return { status: 200, body: { results: [card(1, '4242', true), card(2, '1111', false)] } };
  if (path === '/api/payment-settings/' && call.method === 'GET')
    return { status: 200, body: SETTINGS };
  if (path === '/api/payment-settings/' && call.method === 'PUT')
    return { status: 200, body: { ...SETTINGS, ...(call.body as object) } };
  if (path === '/api/payment-methods/2/set-default/') return { status: 200, body: {} };
  if (path === '/api/payment-methods/2/') return { status: 204 };
  return { status: 404, body: { detail: 'Not found.' } };
}

const show = (permissions: Permission[]) => {
  const calls = mockFetch(answer);
  setSession(productIn(product({ session_permissions: permissions })));
  renderWithProviders(
    <MemoryRouter>
      <PaymentSettings />
    </MemoryRouter>,
  );
  return calls;
};
const said = (calls: Call[]) =>
  calls.map((c) => `${c.method} ${new URL(c.url, 'http://x').pathname}`);

afterEach(() => {
  resetSession();
  vi.unstubAllGlobals();
});

describe('/payment-settings', () => {
  const ALL: Permission[] = [
    'payments.view_payment',
    'payments.add_payment',
    'payments.change_payment',
    'payments.delete_payment',
  ];

  it('shows the cards, the default marked; makes another the default and removes one after a confirmation', async () => {
    const calls = show(ALL);
    await screen.findByText('ending 1111');
    expect(screen.getAllByText('Default')).toHaveLength(1);
    // what failed is retried by itself once a card is saved or made the default
    expect(screen.getByText(PAYMENT_METHOD_MESSAGES.automaticRetry)).toBeTruthy();
    // the default card offers no 'Make default'
    expect(screen.queryByRole('button', { name: 'Make default: Visa ending 4242' })).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'Make default: Visa ending 1111' }));
    await waitFor(() => expect(said(calls)).toContain('POST /api/payment-methods/2/set-default/'));
    fireEvent.click(screen.getByRole('button', { name: 'Remove Visa ending 1111' }));
    expect(said(calls)).not.toContain('DELETE /api/payment-methods/2/');
    fireEvent.click(await screen.findByRole('button', { name: 'Remove card' }));
    await waitFor(() => expect(said(calls)).toContain('DELETE /api/payment-methods/2/'));
  });

  it('saves the billing email, and refuses a malformed one without asking the server', async () => {
    const calls = show(ALL);
    const email = await screen.findByLabelText(/Billing email/);
    await waitFor(() => expect((email as HTMLInputElement).value).toBe('accounts@acme.test'));
    fireEvent.change(email, { target: { value: 'not an email' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save billing email' }));
    expect((await screen.findAllByText(MESSAGES.invalidEmail)).length).toBeGreaterThan(0);
    expect(said(calls)).not.toContain('PUT /api/payment-settings/');
    fireEvent.change(email, { target: { value: 'billing@acme.test' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save billing email' }));
    await waitFor(() =>
      expect(calls.find((c) => c.method === 'PUT')?.body).toEqual({
        billing_email: 'billing@acme.test',
      }),
    );
  });

  it('with view only: the cards and email are shown, nothing can be changed', async () => {
    show(['payments.view_payment']);
    await screen.findByText('ending 1111');
    for (const name of [/Make default/, /^Remove/, /Add a card/, /Save billing email/]) {
      expect(screen.queryByRole('button', { name })).toBeNull();
    }
    expect(screen.queryByRole('link', { name: 'Add a card' })).toBeNull();
    const email = (await screen.findByLabelText(/Billing email/)) as HTMLInputElement;
    expect(email.readOnly).toBe(true);
  });
});
