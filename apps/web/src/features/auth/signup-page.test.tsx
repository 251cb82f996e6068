import { fireEvent, screen, waitFor } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { resetSession } from '../../lib/session/session-store';
import { type Call, mockFetch } from '../../test/fetch-mock';
import { renderWithProviders } from '../../test/render';
import { TERMS_REQUIRED } from './applicant-signup-form';
import SignupPage from './signup-page';

afterEach(() => {
  resetSession();
  vi.unstubAllGlobals();
});

const NEXT = '/s/application-portals/7';

function renderAt(search: string) {
  const router = createMemoryRouter(
    [
      { path: '/signup', Component: SignupPage },
      { path: '/bootstrap', element: <h1>Bootstrap</h1> },
    ],
    { initialEntries: [`/signup${search}`] },
  );
  renderWithProviders(<RouterProvider router={router} />);
  return router;
}

function fill() {
  fireEvent.change(screen.getByRole('textbox', { name: /First name/ }), {
    target: { value: 'Priya' },
  });
  fireEvent.change(screen.getByRole('textbox', { name: /Last name/ }), {
    target: { value: 'Driver' },
  });
  fireEvent.change(screen.getByRole('textbox', { name: /Email address/ }), {
    target: { value: 'priya@example.test' },
  });
  fireEvent.change(screen.getByTestId('date-year'), { target: { value: '1988' } });
  fireEvent.change(screen.getByTestId('date-month'), { target: { value: '3' } });
  fireEvent.change(screen.getByTestId('date-day'), { target: { value: '14' } });
  fireEvent.change(screen.getByLabelText(/^Password/), {
    target: { value: 'hackney-carriage-2026' },
  });
  fireEvent.change(screen.getByLabelText(/^Confirm password/), {
    target: { value: 'hackney-carriage-2026' },
  });
}

describe('sign-up', () => {
  it('offers the organisation account when no one is sent here to apply', async () => {
    renderAt('');
    expect(
      await screen.findByRole('link', { name: 'Create an organisation account' }),
    ).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Create account' })).toBeNull();
  });

  it("is the applicant's sign-up with next: the terms are needed, then back to next", async () => {
    const calls = mockFetch((c: Call) =>
      new URL(c.url, 'http://x').pathname === '/api/lms/public/applicants/'
        ? { status: 201, body: { csrf_token: 'tok', user_type: 'SubjectUser' } }
        : { status: 200, body: {} },
    );
    const router = renderAt(`?next=${encodeURIComponent(NEXT)}&subject=y`);
    await screen.findByRole('heading', { name: 'Create your account' });
    fill();
    fireEvent.click(screen.getByRole('button', { name: 'Create account' }));
    expect((await screen.findAllByText(TERMS_REQUIRED)).length).toBeGreaterThan(0);
    expect(calls.some((c) => c.url.includes('/api/lms/public/applicants/'))).toBe(false);
    fireEvent.click(screen.getByRole('checkbox', { name: /I agree to the terms/ }));
    fireEvent.click(screen.getByRole('button', { name: 'Create account' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/bootstrap'));
    expect(new URLSearchParams(router.state.location.search).get('next')).toBe(NEXT);
    const sent = calls.find((c) => c.url.includes('/api/lms/public/applicants/'));
    expect(sent?.body).toEqual({
      first_name: 'Priya',
      last_name: 'Driver',
      email: 'priya@example.test',
      dob: '1988-03-14',
      password: 'hackney-carriage-2026',
      terms_agreed: true,
    });
  });

  it("shows the server's answer on its field (an email in use)", async () => {
    mockFetch(() => ({ status: 400, body: { email: ['A user with that email already exists.'] } }));
    renderAt(`?next=${encodeURIComponent(NEXT)}&subject=y`);
    await screen.findByRole('heading', { name: 'Create your account' });
    expect(screen.getByRole('link', { name: 'Sign in' }).getAttribute('href')).toBe(
      `/login?next=${encodeURIComponent(NEXT)}&subject=y`,
    );
    fill();
    fireEvent.click(screen.getByRole('checkbox', { name: /I agree to the terms/ }));
    fireEvent.click(screen.getByRole('button', { name: 'Create account' }));
    expect(
      (await screen.findAllByText('A user with that email already exists.')).length,
    ).toBeGreaterThan(0);
  });
});
