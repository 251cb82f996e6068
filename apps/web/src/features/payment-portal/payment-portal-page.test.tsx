import type { PaymentPortalOut } from '@kestrel/domain';
import { act, fireEvent, screen } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { type Call, mockFetch } from '../../test/fetch-mock';
import { renderWithProviders } from '../../test/render';
import { safeUrl } from './card-form';
import PaymentPortalPage, { CHALLENGE_LOOK_MS, PREPARE_SECONDS } from './payment-portal-page';

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
  vi.restoreAllMocks();
});

/** With fake timers: the page's timers run `ms` on, a second at a time (React re-arms them). */
async function after(ms: number) {
  let left = ms;
  do {
    await act(() => vi.advanceTimersByTimeAsync(Math.min(1000, left)));
    left -= 1000;
  } while (left > 0);
}

/** Fills the card form with a valid test card and sends it. */
function pay() {
  const type = (label: string | RegExp, value: string) =>
    fireEvent.change(screen.getByLabelText(label), { target: { value } });
  type('Name on card', 'Alice Smith');
  type('Card number', '4000 0000 0000 3220');
  type(/^Expiry date/, '12/40');
  type(/^Security code/, '123');
  fireEvent.click(screen.getByRole('button', { name: 'Pay £3.50' }));
}

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
    // the intent was there at once (only the provider was asked): focus is left alone
    expect(document.activeElement).toBe(document.body);
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

  it('moves focus to the card form when it replaces "Preparing…", once', async () => {
    let opened = 0;
    mockFetch((c) => {
      if (pathOf(c).startsWith('/api/public/payment-portal/')) {
        opened += 1;
        return { status: 200, body: portal(opened >= 2) };
      }
      return { status: 200, body: intent('requires_payment_method') };
    });
    show();
    await screen.findByText('Preparing your payment…');
    expect(document.activeElement).toBe(document.body);
    await screen.findByRole('button', { name: 'Pay £3.50' }, { timeout: 5_000 });
    const heading = screen.getByRole('heading', { name: 'Card details' });
    expect(heading.id).toBe('card-heading');
    expect(heading.getAttribute('tabindex')).toBe('-1');
    expect(document.activeElement).toBe(heading);
    // not again: typing (re-rendering the form) leaves focus where the user put it
    const name = screen.getByLabelText('Name on card');
    name.focus();
    fireEvent.change(name, { target: { value: 'A' } });
    expect(document.activeElement).toBe(name);
  });

  it('keeps waiting through failed looks (a 5xx, the network) and shows the form when made', async () => {
    vi.useFakeTimers();
    const answers: Array<'waiting' | 'down' | 'offline' | 'made'> = [
      'waiting',
      'down',
      'offline',
      'down',
      'waiting',
      'made',
    ];
    let opened = 0;
    const calls = mockFetch((c) => {
      if (!pathOf(c).startsWith('/api/public/payment-portal/')) {
        return { status: 200, body: intent('requires_payment_method') };
      }
      const now = answers[Math.min(opened, answers.length - 1)];
      opened += 1;
      if (now === 'offline') throw new TypeError('Failed to fetch');
      return now === 'down'
        ? { status: 503, body: { detail: 'Service unavailable' } }
        : { status: 200, body: portal(now === 'made') };
    });
    show();
    await after(0);
    for (let i = 1; i <= 4; i++) {
      await after(1000);
      expect(portalCalls(calls)).toHaveLength(i + 1);
      expect(screen.getByText('Preparing your payment…')).toBeTruthy();
      expect(screen.queryByText('An error has occurred')).toBeNull();
    }
    await after(1000);
    expect(portalCalls(calls)).toHaveLength(6);
    expect(screen.getByRole('button', { name: 'Pay £3.50' })).toBeTruthy();
    expect(screen.queryByText('Preparing your payment…')).toBeNull();
  });

  it('a payment gone while waiting (404) is not a blip: the link is not valid', async () => {
    vi.useFakeTimers();
    let opened = 0;
    const calls = mockFetch(() => {
      opened += 1;
      return opened < 3
        ? { status: 200, body: portal(false) }
        : { status: 404, body: { detail: 'Not found.' } };
    });
    show();
    await after(0);
    await after(2000);
    expect(screen.getByRole('alert').textContent).toBe('This payment link is not valid.');
    await after(5000);
    expect(portalCalls(calls)).toHaveLength(3);
  });

  it('"Try again" after the wait runs out asks again, for another 30 s', async () => {
    vi.useFakeTimers();
    let made = false;
    const calls = mockFetch((c) =>
      pathOf(c).startsWith('/api/public/payment-portal/')
        ? { status: 200, body: portal(made) }
        : { status: 200, body: intent('requires_payment_method') },
    );
    show();
    await after(0);
    await after(PREPARE_SECONDS * 1000);
    expect(screen.getByRole('alert').textContent).toBe(
      'The payment service is not available. Try again later.',
    );
    expect(portalCalls(calls)).toHaveLength(PREPARE_SECONDS + 1);
    fireEvent.click(screen.getByRole('button', { name: 'Try again' }));
    await after(0);
    // asked at once, and waiting again
    expect(portalCalls(calls)).toHaveLength(PREPARE_SECONDS + 2);
    expect(screen.getByText('Preparing your payment…')).toBeTruthy();
    expect(screen.queryByRole('alert')).toBeNull();
    expect(screen.queryByRole('button', { name: 'Try again' })).toBeNull();
    await after(5000);
    expect(portalCalls(calls)).toHaveLength(PREPARE_SECONDS + 7);
    // made meanwhile: the next look finds it
    made = true;
    await after(1000);
    expect(screen.getByRole('button', { name: 'Pay £3.50' })).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Try again' })).toBeNull();
  });

  it('a provider intent refused (last_error, none made) is unavailable at once, not waited for', async () => {
    vi.useFakeTimers();
    const calls = mockFetch(() => ({
      status: 200,
      body: portal(false, { last_error: 'Amount must be at least £0.30 gbp.' }),
    }));
    show();
    await after(0);
    expect(screen.getByRole('alert').textContent).toBe(
      'The payment service is not available. Try again later.',
    );
    expect(screen.queryByText('Preparing your payment…')).toBeNull();
    // the provider's own words are not the payer's business; nothing to try again
    expect(screen.queryByText('Amount must be at least £0.30 gbp.')).toBeNull();
    expect(screen.queryByRole('button', { name: 'Try again' })).toBeNull();
    await after(10_000);
    expect(portalCalls(calls)).toHaveLength(1);
  });

  it('a provider that does not answer the look within 5 s: the form', async () => {
    vi.useFakeTimers();
    // happy-dom's AbortSignal.timeout runs on its window's own timer, which fake timers miss:
    // the same, on the faked one
    const timeout = vi.spyOn(AbortSignal, 'timeout').mockImplementation((ms: number) => {
      const c = new AbortController();
      setTimeout(() => c.abort(new DOMException('signal timed out', 'TimeoutError')), ms);
      return c.signal;
    });
    const signals: AbortSignal[] = [];
    const portalFetch = vi.fn(async () => Response.json(portal(true)));
    vi.stubGlobal('fetch', (input: string, init?: RequestInit) => {
      if (new URL(input, 'http://x').pathname.startsWith('/api/public/')) return portalFetch();
      // the provider hangs: only the page's own signal ends the call
      const signal = init?.signal;
      if (signal) signals.push(signal);
      return new Promise<Response>((_, reject) => {
        signal?.addEventListener('abort', () => reject(signal.reason));
      });
    });
    show();
    await after(0);
    expect(signals).toHaveLength(1);
    expect(timeout).toHaveBeenCalledWith(CHALLENGE_LOOK_MS);
    await after(CHALLENGE_LOOK_MS - 1000);
    expect(screen.getByText('Preparing your payment…')).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Pay £3.50' })).toBeNull();
    await after(1000);
    expect(signals[0]?.aborted).toBe(true);
    expect(screen.getByRole('button', { name: 'Pay £3.50' })).toBeTruthy();
    expect(screen.queryByText('Preparing your payment…')).toBeNull();
    expect(portalFetch).toHaveBeenCalledTimes(1);
    expect(CHALLENGE_LOOK_MS).toBe(5000);
  });

  it("goes to the provider's 3-D Secure page on confirming, only if it is a safe one", async () => {
    let next = CHALLENGE;
    // (the confirmation's body is a form, which mockFetch cannot read)
    const confirmed: URLSearchParams[] = [];
    vi.stubGlobal('fetch', async (input: string, init?: RequestInit) => {
      const path = new URL(input, 'http://x').pathname;
      if (path.startsWith('/api/public/payment-portal/')) return Response.json(portal(true));
      if (init?.method !== 'POST') return Response.json(intent('requires_payment_method'));
      expect(path).toBe(`/simulator/payments/v1/payment_intents/${PI}/confirm`);
      confirmed.push(new URLSearchParams(String(init.body)));
      return Response.json(intent('requires_action', next));
    });
    const assign = vi.spyOn(window.location, 'assign').mockImplementation(() => {});
    show();
    await screen.findByRole('button', { name: 'Pay £3.50' });
    next = 'http://evil.test/3ds';
    pay();
    expect(await screen.findByText('There is a problem')).toBeTruthy();
    expect(confirmed).toHaveLength(1);
    expect(confirmed[0]?.get('payment_method_data[card][number]')).toBe('4000000000003220');
    expect(screen.getAllByText('An error has occurred').length).toBeGreaterThan(0);
    expect(assign).not.toHaveBeenCalled();
    expect(screen.getByRole('button', { name: 'Pay £3.50' })).toBeEnabled();
    next = CHALLENGE;
    pay();
    await vi.waitFor(() => expect(assign).toHaveBeenCalledWith(CHALLENGE));
    expect(confirmed).toHaveLength(2);
    expect(assign).toHaveBeenCalledTimes(1);
  });
});

describe('safeUrl', () => {
  it('allows a path of this site or an https address, nothing else', () => {
    expect(safeUrl(CHALLENGE)).toBe(CHALLENGE);
    expect(safeUrl('https://hooks.stripe.com/3d_secure_2/hosted?x=1')).toBe(
      'https://hooks.stripe.com/3d_secure_2/hosted?x=1',
    );
    for (const bad of [
      'http://evil.test/3ds',
      'javascript:alert(1)',
      'data:text/html,hi',
      '//evil.test/3ds',
      '/\\evil.test/3ds',
      '/\t/evil.test/3ds',
      'simulator/payments/3ds',
      '',
    ]) {
      expect(safeUrl(bad)).toBeNull();
    }
  });
});

describe('after paying: Continue, and a licence fee named as such', () => {
  function showAt(search: string) {
    const router = createMemoryRouter(
      [
        { path: '/payment-portal/:id', Component: PaymentPortalPage },
        { path: '/s/self-initiate/:s/:p', element: <h1>Registration</h1> },
      ],
      { initialEntries: [`/payment-portal/${ID}${search}`] },
    );
    renderWithProviders(<RouterProvider router={router} />);
  }
  afterEach(() => window.sessionStorage.clear());

  it("goes on to the link's next page once paid (kept for the return from the bank)", async () => {
    mockFetch(() => ({
      status: 200,
      body: portal(false, { outcome: 'paid', status: 'succeeded' }),
    }));
    showAt(`?next=${encodeURIComponent('/s/self-initiate/4/volunteers')}`);
    await screen.findByText('Payment received');
    const go = screen.getByRole('link', { name: 'Continue' });
    expect(go.getAttribute('href')).toBe('/s/self-initiate/4/volunteers');
    expect(screen.getByRole('heading', { level: 1 }).textContent).toBe('Pay for your check');
    fireEvent.click(go);
    expect(await screen.findByRole('heading', { name: 'Registration' })).toBeTruthy();
  });

  it('keeps next for the bare address the bank returns to', async () => {
    window.sessionStorage.setItem(
      `kestrel-payment-next-${ID}`,
      JSON.stringify({ next: '/s/dashboard', licence: true }),
    );
    mockFetch(() => ({
      status: 200,
      body: portal(false, { outcome: 'paid', status: 'succeeded' }),
    }));
    showAt('');
    await screen.findByText('Payment received');
    expect(screen.getByRole('link', { name: 'Continue' }).getAttribute('href')).toBe(
      '/s/dashboard',
    );
  });

  it('names a licence application, not a check, for a licence fee', async () => {
    mockFetch(() => ({
      status: 200,
      body: portal(false, {
        outcome: 'paid',
        status: 'succeeded',
        description: 'Licence application fee: Hackney carriage driver licence',
        reason: 'Licence application fee: Hackney carriage driver licence',
        check_name: null,
      }),
    }));
    showAt(`?next=${encodeURIComponent('/s/dashboard')}&for=licence`);
    await screen.findByText('Payment received');
    expect(screen.getByRole('heading', { level: 1 }).textContent).toBe('Pay your licence fee');
    expect(screen.getByText(/your licence application will now continue/)).toBeTruthy();
    expect(screen.queryByText(/your check|this check/i)).toBeNull();
  });

  it('offers no Continue to someone signed out with no next, nor while unpaid', async () => {
    mockFetch(() => ({
      status: 200,
      body: portal(false, { outcome: 'paid', status: 'succeeded' }),
    }));
    showAt(`?next=${encodeURIComponent('//evil.example/x')}`);
    await screen.findByText('Payment received');
    expect(screen.queryByRole('link', { name: 'Continue' })).toBeNull();
  });
});
