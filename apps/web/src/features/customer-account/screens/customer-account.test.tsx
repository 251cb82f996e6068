import type { CustomerAccountOut, Permission } from '@kestrel/domain';
import { fireEvent, screen, waitFor } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { resetSession, setSession } from '../../../lib/session/session-store';
import { type Call, mockFetch } from '../../../test/fetch-mock';
import { renderWithProviders } from '../../../test/render';
import { boot, product, productIn } from '../../../test/sessions';
import CustomerAccountScreen from './customer-account';

const ACCOUNT: CustomerAccountOut = {
  id: 1,
  name: 'Acme Care Ltd',
  line_one: 'Acme House',
  line_two: '',
  town: 'Manchester',
  postcode: 'M1 1AE',
  contact_name: 'Ada Admin',
  contact_email: 'office@acme-care.test',
  contact_phone: '+447911123400',
  brand: 'kestrel',
  brand_name: 'Kestrel Checks',
  demo_mode: false,
  created_at: '2026-01-01T00:00:00Z',
  entitlements: [{ entitlement: 'cycles', label: 'Billing cycles and subscriptions' }],
  require_totp: false,
  pricebook: {
    id: 3,
    name: 'Standard 2026',
    valid_from: '2026-01-01',
    valid_to: null,
    invoiced: true,
    prices: [
      {
        activity_type: 'dbs-basic',
        name: 'Basic DBS check',
        level: 'online',
        amount_pence: 2350,
        amount_display: '£23.50',
      },
    ],
  },
};

afterEach(() => {
  resetSession();
  vi.unstubAllGlobals();
});

function answer(call: Call) {
  const path = new URL(call.url, 'http://x').pathname;
  if (path === '/api/customer-account/' && call.method === 'GET')
    return { status: 200, body: ACCOUNT };
  if (path === '/api/customer-account/' && call.method === 'PATCH')
    return { status: 200, body: { ...ACCOUNT, require_totp: true } };
  return { status: 404, body: {} };
}

function renderAccount(permissions: Permission[]) {
  const p = product({ session_permissions: permissions });
  setSession({ ...productIn(p), bootstrap: boot(p) });
  const router = createMemoryRouter(
    [{ path: '/customer-account', Component: CustomerAccountScreen }],
    {
      initialEntries: ['/customer-account'],
    },
  );
  renderWithProviders(<RouterProvider router={router} />);
}

describe('customer account', () => {
  it('shows the details, entitlements and the pricebook; no edit without the permission', async () => {
    mockFetch(answer);
    renderAccount(['customers.view_customer']);
    await screen.findByText('Acme House');
    expect(screen.getByText('Billing cycles and subscriptions')).toBeTruthy();
    expect(screen.getByText('£23.50')).toBeTruthy();
    expect(screen.getByText('Invoiced')).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Edit details' })).toBeNull();
    expect(screen.getByRole('switch', { name: /Require two-factor/ })).toHaveProperty(
      'disabled',
      true,
    );
  });

  it('turns on required two-factor with customers.change_customer', async () => {
    const calls = mockFetch(answer);
    renderAccount(['customers.view_customer', 'customers.change_customer']);
    await screen.findByRole('button', { name: 'Edit details' });
    fireEvent.click(screen.getByRole('switch', { name: /Require two-factor/ }));
    await waitFor(() =>
      expect(
        calls.some(
          (c) =>
            c.method === 'PATCH' &&
            JSON.stringify(c.body) === JSON.stringify({ require_totp: true }),
        ),
      ).toBe(true),
    );
  });
});
