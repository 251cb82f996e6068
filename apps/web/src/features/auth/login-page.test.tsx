import { fireEvent, screen } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { resetSession } from '../../lib/session/session-store';
import { mockFetch } from '../../test/fetch-mock';
import { renderWithProviders } from '../../test/render';
import LoginPage from './login-page';

afterEach(() => {
  resetSession();
  vi.unstubAllGlobals();
});

function renderLogin() {
  const router = createMemoryRouter([{ path: '/login', Component: LoginPage }], {
    initialEntries: ['/login'],
  });
  renderWithProviders(<RouterProvider router={router} />);
}

describe('sign-in page', () => {
  it('puts the focus in the email field', async () => {
    renderLogin();
    const email = await screen.findByRole('textbox', { name: /Email/ });
    expect(document.activeElement).toBe(email);
  });

  it('says a throttled sign-in in plain words with the wait', async () => {
    mockFetch(() => ({
      status: 429,
      body: { detail: 'Request was throttled. Expected available in 230 seconds.' },
      headers: { 'Retry-After': '230' },
    }));
    renderLogin();
    fireEvent.change(await screen.findByRole('textbox', { name: /Email/ }), {
      target: { value: 'admin@acme.test' },
    });
    fireEvent.change(screen.getByLabelText(/Password/), { target: { value: 'wrong-password' } });
    fireEvent.click(screen.getByRole('button', { name: 'Sign in' }));
    const notice = await screen.findByTestId('login-notice');
    expect(notice.textContent).toContain('Too many sign-in attempts. Try again in 4 minutes.');
    expect(notice.textContent).not.toContain('throttled');
  });
});
