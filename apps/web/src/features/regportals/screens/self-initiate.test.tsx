import type { RegPortalPublicOut } from '@kestrel/domain';
import { fireEvent, screen, waitFor } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { resetSession, setSession } from '../../../lib/session/session-store';
import { type Call, mockFetch } from '../../../test/fetch-mock';
import { renderWithProviders } from '../../../test/render';
import { subjectIn } from '../../../test/sessions';
import SubjectSelfInitiate from './s-self-initiate';
import SelfInitiate from './self-initiate';

const PORTAL: RegPortalPublicOut = {
  title: 'Drivers 2027',
  introduction: 'Register for your driver checks.',
  brand: 'Kestrel Checks',
  customer_name: 'Acme Taxis',
  process_name: 'Drivers',
  checks: ['Basic DBS check', 'Driver data'],
  payer: 'subject',
  price_pence: 4250,
  currency: 'gbp',
  ask_email: 'required',
  ask_dob: 'hidden',
  ask_phone: 'required',
  unavailable: null,
  unavailable_message: null,
};
const API = '/api/public/self-initiate/3/drivers-2027/';
const RESULT = { registration_id: 12, state: 'started', existing: false, next_url: null };

afterEach(() => {
  resetSession();
  vi.unstubAllGlobals();
});

function answer(portal: RegPortalPublicOut = PORTAL) {
  return (call: Call) => {
    const path = new URL(call.url, 'http://x').pathname;
    if (path === API && call.method === 'GET') return { status: 200, body: portal };
    if (path === API && call.method === 'POST') return { status: 201, body: RESULT };
    if (path === `${API}confirm/`)
      return {
        status: 200,
        body: { ...RESULT, state: 'awaiting_payment', next_url: '/payment-portal/pit_x' },
      };
    if (path === '/api/s/self-initiate/3/drivers-2027/' && call.method === 'GET')
      return { status: 200, body: portal };
    if (path === '/api/s/self-initiate/3/drivers-2027/' && call.method === 'POST')
      return {
        status: 201,
        body: { ...RESULT, state: 'case_created', next_url: '/s/case-portal/88' },
      };
    if (path === '/api/accounts/check-session/')
      return { status: 200, body: { authenticated: false, csrf_token: 'c' } };
    return { status: 404, body: {} };
  };
}

const Elsewhere = () => <p>elsewhere</p>;

function show(url: string) {
  const router = createMemoryRouter(
    [
      { path: '/self-initiate/:segmentId/:portalPath', Component: SelfInitiate },
      { path: '/s/self-initiate/:segmentId/:portalPath', Component: SubjectSelfInitiate },
      { path: '*', Component: Elsewhere },
    ],
    { initialEntries: [url] },
  );
  renderWithProviders(<RouterProvider router={router} />);
  return router;
}

describe('self-initiate (public)', () => {
  it('says what will be checked and what it costs, then asks the details the portal asks', async () => {
    const calls = mockFetch(answer());
    show('/self-initiate/3/drivers-2027');
    expect(await screen.findByRole('heading', { level: 1, name: 'Drivers 2027' })).toBeTruthy();
    expect(screen.getByText('Register for your driver checks.')).toBeTruthy();
    expect(screen.getByText('Basic DBS check')).toBeTruthy();
    expect(screen.getByTestId('price').textContent).toBe('£42.50');
    fireEvent.click(screen.getByRole('button', { name: 'Start now' }));
    expect(await screen.findByRole('heading', { level: 1, name: 'Your details' })).toBeTruthy();
    // The date of birth is not asked by this portal; the phone is.
    expect(screen.queryByText('Date of birth')).toBeNull();
    fireEvent.change(screen.getByLabelText(/^First name/), { target: { value: 'R1ta' } });
    fireEvent.change(screen.getByLabelText(/^Email address/), { target: { value: 'rita@x' } });
    fireEvent.click(screen.getByRole('button', { name: 'Continue' }));
    expect((await screen.findAllByText('Contains invalid characters')).length).toBeGreaterThan(0);
    expect(screen.getAllByText('Invalid email').length).toBeGreaterThan(0);
    expect(screen.getAllByText('Required').length).toBeGreaterThan(0);
    expect(calls.some((c) => c.method === 'POST')).toBe(false);
  });

  it("registers and says 'Check your email'", async () => {
    const calls = mockFetch(answer());
    show('/self-initiate/3/drivers-2027');
    fireEvent.click(await screen.findByRole('button', { name: 'Start now' }));
    fireEvent.change(await screen.findByLabelText(/^First name/), { target: { value: 'Rita' } });
    fireEvent.change(screen.getByLabelText(/^Last name/), { target: { value: "O'Neil" } });
    fireEvent.change(screen.getByLabelText(/^Email address/), {
      target: { value: 'rita@example.test' },
    });
    fireEvent.change(screen.getByLabelText(/^Phone number/), { target: { value: '07911 123456' } });
    fireEvent.click(screen.getByRole('button', { name: 'Continue' }));
    expect(await screen.findByRole('heading', { level: 1, name: 'Check your email' })).toBeTruthy();
    expect(screen.getByText('rita@example.test')).toBeTruthy();
    expect(screen.getByText(/works for 48 hours/)).toBeTruthy();
    const post = calls.find((c) => c.method === 'POST');
    expect(post?.url).toBe(API);
    expect(post?.body).toEqual({
      first_name: 'Rita',
      last_name: "O'Neil",
      email: 'rita@example.test',
      phone: '+447911123456',
    });
  });

  it('shows a closed portal its message and no form', async () => {
    mockFetch(
      answer({
        ...PORTAL,
        unavailable: 'closed',
        unavailable_message: 'This registration is closed.',
      }),
    );
    show('/self-initiate/3/drivers-2027');
    expect(await screen.findByText('This registration is closed.')).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Start now' })).toBeNull();
  });

  it('confirms the emailed link with a password and goes on to pay', async () => {
    const calls = mockFetch(answer());
    const router = show('/self-initiate/3/drivers-2027?confirm=tok123');
    expect(
      await screen.findByRole('heading', { level: 1, name: 'Confirm your email' }),
    ).toBeTruthy();
    fireEvent.change(screen.getByLabelText(/^Password/), { target: { value: 'short' } });
    fireEvent.change(screen.getByLabelText(/^Confirm password/), { target: { value: 'short' } });
    fireEvent.click(screen.getByRole('button', { name: 'Confirm and continue' }));
    expect((await screen.findAllByText('Must be at least 12 characters')).length).toBeGreaterThan(
      0,
    );
    fireEvent.change(screen.getByLabelText(/^Password/), {
      target: { value: 'a long enough password' },
    });
    fireEvent.change(screen.getByLabelText(/^Confirm password/), {
      target: { value: 'a long enough password' },
    });
    fireEvent.click(screen.getByRole('button', { name: 'Confirm and continue' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/bootstrap'));
    expect(router.state.location.search).toBe(
      `?next=${encodeURIComponent('/payment-portal/pit_x')}`,
    );
    const confirm = calls.find((c) => c.url === `${API}confirm/`);
    expect(confirm?.body).toEqual({ token: 'tok123', password: 'a long enough password' });
  });

  it('says a used or expired link cannot be used', async () => {
    mockFetch((call) =>
      call.url.endsWith('/confirm/')
        ? { status: 400, body: { token: ['This confirmation link is invalid or has expired.'] } }
        : answer()(call),
    );
    show('/self-initiate/3/drivers-2027?confirm=old');
    fireEvent.change(await screen.findByLabelText(/^Password/), {
      target: { value: 'a long enough password' },
    });
    fireEvent.change(screen.getByLabelText(/^Confirm password/), {
      target: { value: 'a long enough password' },
    });
    fireEvent.click(screen.getByRole('button', { name: 'Confirm and continue' }));
    expect(
      await screen.findByText('This confirmation link is invalid or has expired.'),
    ).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Confirm and continue' })).toBeNull();
  });
});

describe('self-initiate with nowhere to go yet', () => {
  const waiting = (call: Call) => {
    const path = new URL(call.url, 'http://x').pathname;
    if (path.endsWith('/confirm/') || (path.startsWith('/api/s/') && call.method === 'POST'))
      return { status: 200, body: { ...RESULT, existing: true, state: 'awaiting_payment' } };
    return answer()(call);
  };

  it("confirms, then sends the person to the portal's signed-in page", async () => {
    mockFetch(waiting);
    const router = show('/self-initiate/3/drivers-2027?confirm=tok123');
    fireEvent.change(await screen.findByLabelText(/^Password/), {
      target: { value: 'a long enough password' },
    });
    fireEvent.change(screen.getByLabelText(/^Confirm password/), {
      target: { value: 'a long enough password' },
    });
    fireEvent.click(screen.getByRole('button', { name: 'Confirm and continue' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/bootstrap'));
    expect(router.state.location.search).toBe(
      `?next=${encodeURIComponent('/s/self-initiate/3/drivers-2027')}`,
    );
  });

  it('tells a signed-in subject their registration awaits its payment', async () => {
    setSession(subjectIn());
    mockFetch(waiting);
    const router = show('/s/self-initiate/3/drivers-2027');
    fireEvent.click(await screen.findByRole('button', { name: 'Start my checks' }));
    expect(await screen.findByText(/Your checks start once they are paid for/)).toBeTruthy();
    expect(router.state.location.pathname).toBe('/s/self-initiate/3/drivers-2027');
  });
});

describe('self-initiate (signed-in subject)', () => {
  it("starts the checks with one button and goes to the case's portal", async () => {
    setSession(subjectIn());
    const calls = mockFetch(answer());
    const router = show('/s/self-initiate/3/drivers-2027');
    fireEvent.click(await screen.findByRole('button', { name: 'Start my checks' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/s/case-portal/88'));
    const post = calls.find((c) => c.method === 'POST');
    expect(post?.url).toBe('/api/s/self-initiate/3/drivers-2027/');
    expect(post?.body).toEqual({});
  });
});
