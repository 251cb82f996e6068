import { PAYMENT_METHOD_MESSAGES } from '@kestrel/domain';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { resetSession, setSession } from '../../../lib/session/session-store';
import { type Call, mockFetch } from '../../../test/fetch-mock';
import { renderWithProviders } from '../../../test/render';
import { boot, product, productIn } from '../../../test/sessions';
import Subscriptions from './subscriptions';

const SUBSCRIPTION = {
  id: 3,
  subject: { id: 41, first_name: 'Sam', last_name: 'Subject', email: 'sam@example.test' },
  cycle: {
    id: 9,
    name: 'Update service',
    requirements: ['dbs-update'],
    repeat_text: 'Every 6 months',
    billing_text: 'Every year',
  },
  process: { id: 5, name: 'Drivers' },
  state: 'active',
  state_display: 'Active',
  next_due_at: '2027-05-28T10:00:00Z',
  next_billing_at: '2027-11-28T10:00:00Z',
  last_case: null,
  cases_opened: 1,
  started_at: '2026-11-28T10:00:00Z',
  paused_at: null,
  ended_at: null,
  created_at: '2026-11-28T10:00:00Z',
};
const FAILED = {
  subscription: 3,
  charge: 17,
  period: '2026-11-28T10:00:00Z',
  amount_pence: 1300,
  amount_display: '£13.00',
  state: 'failed',
  state_display: 'Payment failed',
  reason: 'No payment card is saved.',
  attempts: 1,
};
const PENDING = {
  ...FAILED,
  state: 'pending',
  state_display: 'Payment pending',
  reason: null,
  attempts: 2,
};
/** The server's billing once retried (the list reads it again). */
let retried = false;
const page = <T,>(rows: T[]) => ({ count: rows.length, next: null, previous: null, results: rows });

afterEach(() => {
  retried = false;
  resetSession();
  vi.unstubAllGlobals();
});

function answer(call: Call) {
  const path = new URL(call.url, 'http://x').pathname;
  if (path === '/api/subscriptions/') return { status: 200, body: page([SUBSCRIPTION]) };
  if (path === '/api/subscriptions/billing/')
    return { status: 200, body: { results: [retried ? PENDING : FAILED] } };
  if (path === '/api/subscription-charges/17/retry-payment/') {
    retried = true;
    return { status: 200, body: PENDING };
  }
  if (path === '/api/cycles/')
    return {
      status: 200,
      body: page([{ id: 9, name: 'Update service', process_name: 'Drivers' }]),
    };
  if (path === '/api/subscriptions/3/pause/')
    return { status: 200, body: { ...SUBSCRIPTION, state: 'paused', state_display: 'Paused' } };
  if (path === '/api/subscriptions/3/end/')
    return { status: 400, body: { state: ['A subscription that is ended cannot end.'] } };
  return { status: 404, body: {} };
}

function renderList(change = true, pay = false) {
  const p = product({
    session_permissions: [
      'subscriptions.view_subscription',
      ...(change ? (['subscriptions.change_subscription'] as const) : []),
      ...(pay ? (['payments.add_payment'] as const) : []),
    ],
  });
  setSession({ ...productIn(p, ['cycles']), bootstrap: boot(p, ['cycles']) });
  const router = createMemoryRouter([{ path: '/subscriptions', Component: Subscriptions }], {
    initialEntries: ['/subscriptions'],
  });
  renderWithProviders(<RouterProvider router={router} />);
}

describe('subscriptions', () => {
  it('lists every subscription with its next due date, and filters by due date', async () => {
    const calls = mockFetch(answer);
    renderList();
    expect(await screen.findByText('Sam Subject')).toBeTruthy();
    expect(screen.getByText('Update service')).toBeTruthy();
    expect(screen.getByText('28th May 2027')).toBeTruthy();
    expect(screen.getByText('Every year')).toBeTruthy();
    fireEvent.change(screen.getByLabelText('Due on or before'), {
      target: { value: '2027-06-30' },
    });
    await waitFor(() =>
      expect(calls.some((c) => c.url.includes('due_before=2027-06-30'))).toBe(true),
    );
  });

  it('pauses after a confirmation', async () => {
    const calls = mockFetch(answer);
    renderList();
    fireEvent.click(
      await screen.findByRole('button', { name: 'Pause Sam Subject: Update service' }),
    );
    const dialog = await screen.findByRole('dialog');
    expect(calls.some((c) => c.method === 'POST')).toBe(false);
    fireEvent.click(within(dialog).getByRole('button', { name: 'Pause' }));
    await screen.findByText('Subscription paused');
    expect(
      calls.some((c) => c.method === 'POST' && c.url.endsWith('/api/subscriptions/3/pause/')),
    ).toBe(true);
    // An active subscription is not offered 'Resume'.
    expect(screen.queryByRole('button', { name: /^Resume/ })).toBeNull();
  });

  it("shows the server's 400 in the dialog", async () => {
    mockFetch(answer);
    renderList();
    fireEvent.click(await screen.findByRole('button', { name: 'End Sam Subject: Update service' }));
    const dialog = await screen.findByRole('dialog');
    fireEvent.click(within(dialog).getByRole('button', { name: 'End' }));
    expect(await within(dialog).findByText(/A subscription that is ended cannot end/)).toBeTruthy();
  });

  it('offers no actions without change_subscription', async () => {
    mockFetch(answer);
    renderList(false);
    expect(await screen.findByText('Sam Subject')).toBeTruthy();
    expect(screen.queryByRole('button', { name: /^Pause/ })).toBeNull();
  });

  it("shows the last period's billing: a failed charge with its reason, retried by payments staff", async () => {
    const calls = mockFetch(answer);
    renderList(false, true);
    expect(await screen.findByText('Payment failed')).toBeTruthy();
    expect(screen.getByText('£13.00, 28th Nov 2026')).toBeTruthy();
    expect(screen.getByText('No payment card is saved.')).toBeTruthy();
    // retried by itself once a card is saved (the card-retry job)
    expect(screen.getByText(PAYMENT_METHOD_MESSAGES.retriedWhenCardSaved)).toBeTruthy();
    // the page's rows asked for their billing in one request
    expect(calls.filter((c) => c.url.includes('/api/subscriptions/billing/'))).toHaveLength(1);
    expect(calls.some((c) => c.url.includes('subscription=3'))).toBe(true);
    fireEvent.click(
      screen.getByRole('button', { name: 'Retry payment for Sam Subject: Update service' }),
    );
    expect(await screen.findByText('Payment in progress')).toBeTruthy();
    expect(await screen.findByText('Payment pending')).toBeTruthy();
    expect(
      calls.some(
        (c) => c.method === 'POST' && c.url.endsWith('/api/subscription-charges/17/retry-payment/'),
      ),
    ).toBe(true);
  });

  it('offers no retry without the payments permission; an invoiced period says so', async () => {
    mockFetch((call) => {
      if (new URL(call.url, 'http://x').pathname === '/api/subscriptions/billing/')
        return {
          status: 200,
          body: {
            results: [{ ...FAILED, state: 'invoiced', state_display: 'Invoiced', reason: null }],
          },
        };
      return answer(call);
    });
    renderList(false, false);
    expect(await screen.findByText('Invoiced')).toBeTruthy();
    expect(screen.queryByRole('button', { name: /^Retry payment/ })).toBeNull();
    expect(screen.queryByText(PAYMENT_METHOD_MESSAGES.retriedWhenCardSaved)).toBeNull();
  });

  it('a failed period without the payments permission shows the failure, no retry', async () => {
    mockFetch(answer);
    renderList(false, false);
    expect(await screen.findByText('Payment failed')).toBeTruthy();
    expect(screen.queryByRole('button', { name: /^Retry payment/ })).toBeNull();
    expect(screen.getByText(PAYMENT_METHOD_MESSAGES.retriedWhenCardSaved)).toBeTruthy();
  });
});
