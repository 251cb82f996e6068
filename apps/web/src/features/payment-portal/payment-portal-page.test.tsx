import type { PaymentPortalOut } from '@kestrel/domain';
import { act, screen } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { type Call, mockFetch } from '../../test/fetch-mock';
import { renderWithProviders } from '../../test/render';
import PaymentPortalPage, { PREPARE_SECONDS } from './payment-portal-page';

const ID = 'pit_abcdefghijklmnopqrstuvwx';
const PI = 'pi_sim_abcdefghijklmnopqrstuvwx';
const SECRET = `${PI}_secret_xyz`;
const CHALLENGE = `/simulator/payments/3ds/${PI}/`;

function portal(made: boolean, over: Partial<PaymentPortalOut> = {}): PaymentPortalOut {
  return {
    id: ID,
    description: 'Paper certificate by post: Basic DBS check',
    reason: 'Paper certificate by post',
    check_name: 'Basic DBS check',
    amount_pence: 350,
    amount_display: '£3.50',
    currency: 'gbp',
    status: 'requires_payment_method',
    outcome: 'awaiting',
    brand_name: 'Kestrel Checks',
    publishable_key: 'pk_test_kestrel',
    provider: 'simulator',
    api_base: '/simulator/payments',
    provider_intent_id: made ? PI : null,
    client_secret: made ? SECRET : null,
    last_error: null,
    ...over,
  };
}

/** The provider's answer to the browser's look at the intent. */
function intent(status: string, url: string | null = null) {
  return {
    id: PI,
    object: 'payment_intent',
    amount: 350,
    currency: 'gbp',
    status,
    next_action: url
      ? { type: 'redirect_to_url', redirect_to_url: { url, return_url: `/payment-portal/${ID}` } }
      : null,
    last_payment_error: null,
  };
}

function show() {
  const router = createMemoryRouter(
    [{ path: '/payment-portal/:id', Component: PaymentPortalPage }],
    {
      initialEntries: [`/payment-portal/${ID}`],
    },
  );
  renderWithProviders(<RouterProvider router={router} />);
}

const pathOf = (c: Call) => new URL(c.url, 'http://x').pathname;
const portalCalls = (calls: Call[]) =>
  calls.filter((c) => pathOf(c) === `/api/public/payment-portal/${ID}/`);
const providerCalls = (calls: Call[]) =>
  calls.filter((c) => pathOf(c) === `/simulator/payments/v1/payment_intents/${PI}`);

afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

describe('the payment portal page', () => {
  it('says it is preparing the payment until the provider intent is made, then shows the form', async () => {
    let opened = 0;
    const calls = mockFetch((c) => {
      if (pathOf(c).startsWith('/api/public/payment-portal/')) {
        opened += 1;
        // the job makes the provider intent while the page asks again
        return { status: 200, body: portal(opened >= 3) };
      }
      return { status: 200, body: intent('requires_payment_method') };
    });
    show();
    const preparing = await screen.findByText('Preparing your payment…');
    expect(preparing.closest('[role="status"]')).toBeTruthy();
    expect(screen.getByTestId('amount').textContent).toBe('£3.50');
    expect(screen.getByText('Paper certificate by post: Basic DBS check')).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Pay £3.50' })).toBeNull();
    expect(providerCalls(calls)).toEqual([]);
    // asked again each second: the form once it is made and the provider has no challenge
    await screen.findByRole('button', { name: 'Pay £3.50' }, { timeout: 5_000 });
    expect(screen.queryByText('Preparing your payment…')).toBeNull();
    expect(portalCalls(calls)).toHaveLength(3);
    const [look] = providerCalls(calls);
    expect(providerCalls(calls)).toHaveLength(1);
    const url = new URL(look?.url ?? '', 'http://x');
    expect(url.searchParams.get('client_secret')).toBe(SECRET);
    expect(url.searchParams.get('key')).toBe('pk_test_kestrel');
    expect(look?.method).toBe('GET');
    expect(screen.queryByText('Your bank needs to confirm this payment.')).toBeNull();
  });

  it('offers to continue a 3-D Secure challenge the provider says is unfinished', async () => {
    const calls = mockFetch((c) =>
      pathOf(c).startsWith('/api/public/payment-portal/')
        ? { status: 200, body: portal(true) }
        : { status: 200, body: intent('requires_action', CHALLENGE) },
    );
    show();
    const link = await screen.findByRole('link', { name: "Continue to your bank's check" });
    expect(link.getAttribute('href')).toBe(CHALLENGE);
    expect(screen.getByText('Your bank needs to confirm this payment.')).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Pay £3.50' })).toBeNull();
    expect(portalCalls(calls)).toHaveLength(1);
  });

  it('shows the form when the provider cannot be asked or names no safe page', async () => {
    mockFetch((c) =>
      pathOf(c).startsWith('/api/public/payment-portal/')
        ? { status: 200, body: portal(true) }
        : { status: 200, body: intent('requires_action', 'javascript:alert(1)') },
    );
    show();
    await screen.findByRole('button', { name: 'Pay £3.50' });
    expect(screen.queryByRole('link', { name: "Continue to your bank's check" })).toBeNull();
  });

  it('a provider refusing the look (404) is no challenge: the form', async () => {
    mockFetch((c) =>
      pathOf(c).startsWith('/api/public/payment-portal/')
        ? { status: 200, body: portal(true) }
        : { status: 404, body: { error: { code: 'resource_missing', message: 'No such' } } },
    );
    show();
    await screen.findByRole('button', { name: 'Pay £3.50' });
    expect(screen.queryByText('Preparing your payment…')).toBeNull();
  });

  it('says the payment service is not available after about 30 s without a provider intent', async () => {
    vi.useFakeTimers();
    const calls = mockFetch(() => ({ status: 200, body: portal(false) }));
    show();
    // a second at a time: React renders (and re-arms the page's timer) after each act
    const seconds = async (n: number) => {
      for (let i = 0; i < n; i++) await act(() => vi.advanceTimersByTimeAsync(1000));
    };
    await act(() => vi.advanceTimersByTimeAsync(0));
    expect(screen.getByRole('status').textContent).toBe('Preparing your payment…');
    await seconds(PREPARE_SECONDS - 1);
    expect(portalCalls(calls)).toHaveLength(PREPARE_SECONDS);
    expect(screen.getByText('Preparing your payment…')).toBeTruthy();
    expect(screen.queryByRole('alert')).toBeNull();
    await seconds(1);
    expect(screen.getByRole('alert').textContent).toBe(
      'The payment service is not available. Try again later.',
    );
    expect(screen.queryByText('Preparing your payment…')).toBeNull();
    expect(screen.getByTestId('amount').textContent).toBe('£3.50');
    expect(portalCalls(calls)).toHaveLength(PREPARE_SECONDS + 1);
    // it stops asking
    await seconds(10);
    expect(portalCalls(calls)).toHaveLength(PREPARE_SECONDS + 1);
    expect(PREPARE_SECONDS).toBe(30);
  });
});
