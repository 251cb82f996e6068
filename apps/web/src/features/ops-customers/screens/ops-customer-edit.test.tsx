import { fireEvent, screen } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { resetSession, setSession } from '../../../lib/session/session-store';
import { type Call, mockFetch } from '../../../test/fetch-mock';
import { renderWithProviders } from '../../../test/render';
import { boot, product, productIn } from '../../../test/sessions';
import OpsCustomerEdit from './ops-customer-edit';

const CUSTOMER = {
  id: 5,
  name: 'Acme Care',
  demo_mode: false,
  is_active: true,
  created_at: '2026-11-01T10:00:00Z',
  brand: 'kestrel',
  contact_name: '',
  contact_email: '',
  contact_phone: '',
  entitlements: [],
  activity_types: [1, 2],
  case_count: 0,
  cases_by_state: {},
  user_count: 1,
};
const TYPES = [
  { id: 1, code: 'basic-dbs', name: 'Basic DBS' },
  { id: 2, code: 'rtw', name: 'Right to work' },
  { id: 3, code: 'dvla', name: 'Driving licence' },
];
const page = <T,>(rows: T[]) => ({ count: rows.length, next: null, previous: null, results: rows });

afterEach(() => {
  resetSession();
  vi.unstubAllGlobals();
});

function answer(call: Call) {
  const path = new URL(call.url, 'http://x').pathname;
  if (path === '/api/ops/customers/5/' && call.method === 'GET')
    return { status: 200, body: CUSTOMER };
  if (path === '/api/ops/customers/5/' && call.method === 'PATCH')
    return { status: 200, body: { ...CUSTOMER, activity_types: [2, 3] } };
  if (path === '/api/activity-types/') return { status: 200, body: page(TYPES) };
  return { status: 404, body: {} };
}

describe('ops customer edit', () => {
  it('switches the checks a customer may order and saves them with its details', async () => {
    const calls = mockFetch(answer);
    const p = product({
      is_ops: true,
      customer: null,
      session_permissions: ['customers.change_customer', 'customers.view_all_customers'],
    });
    setSession({ ...productIn(p), bootstrap: boot(p) });
    const router = createMemoryRouter(
      [{ path: '/ops/customers/:id/edit', Component: OpsCustomerEdit }],
      { initialEntries: ['/ops/customers/5/edit'] },
    );
    renderWithProviders(<RouterProvider router={router} />);
    const basic = await screen.findByRole('checkbox', { name: 'Basic DBS' });
    expect((basic as HTMLInputElement).checked).toBe(true);
    const dvla = screen.getByRole('checkbox', { name: 'Driving licence' });
    expect((dvla as HTMLInputElement).disabled).toBe(false);
    fireEvent.click(basic);
    fireEvent.click(dvla);
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    await screen.findByText('Successfully updated customer');
    const patch = calls.find((c) => c.method === 'PATCH');
    const body = (patch?.body ?? {}) as { name?: string; activity_types?: number[] };
    expect(body.name).toBe('Acme Care');
    expect([...(body.activity_types ?? [])].sort()).toEqual([2, 3]);
  });
});
