import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { mockFetch } from '../../test/fetch-mock';
import { renderWithProviders } from '../../test/render';
import ClaimAccountPage from './claim-account-page';

function Elsewhere() {
  return <p>elsewhere</p>;
}

function show(path: string) {
  const router = createMemoryRouter(
    [
      { path: '/auth/claim-account', Component: ClaimAccountPage },
      { path: '*', Component: Elsewhere },
    ],
    { initialEntries: [path] },
  );
  renderWithProviders(<RouterProvider router={router} />);
  return router;
}

const fill = (label: RegExp, value: string) =>
  fireEvent.change(screen.getByLabelText(label), { target: { value } });

afterEach(() => vi.unstubAllGlobals());

describe('claim account (the invitation link)', () => {
  it('checks length and match first, summarised at the top and linked to the fields', async () => {
    const calls = mockFetch(() => ({ status: 200, body: {} }));
    show('/auth/claim-account?token=abc');
    fill(/^New password/, 'short');
    fill(/^Confirm new password/, 'other');
    fireEvent.click(screen.getByRole('button', { name: 'Claim account' }));
    const summary = await screen.findByTestId('error-summary');
    const links = within(summary).getAllByRole('link');
    expect(links.map((a) => [a.textContent, a.getAttribute('href')])).toEqual([
      ['New password: Must be at least 12 characters', '#claim-password'],
      ['Confirm new password: Passwords do not match', '#claim-confirm'],
    ]);
    fireEvent.click(links[1] as HTMLElement);
    expect(document.activeElement).toBe(screen.getByLabelText(/^Confirm new password/));
    expect(calls).toHaveLength(0);
    expect(screen.getByRole('link', { name: 'Sign in' }).getAttribute('href')).toBe(
      '/login?next=%2Fs%2Fdashboard&subject=y',
    );
  });

  it('sends the token and password, and shows what the server says of the password', async () => {
    const calls = mockFetch(() => ({
      status: 400,
      body: { password: ['This password is too common.'] },
    }));
    show('/auth/claim-account?token=abc');
    fill(/^New password/, 'password1234');
    fill(/^Confirm new password/, 'password1234');
    fireEvent.click(screen.getByRole('button', { name: 'Claim account' }));
    await screen.findByText('New password: This password is too common.');
    expect(calls[0]?.url).toBe('/api/user/claim-account/');
    expect(calls[0]?.body).toEqual({ token: 'abc', password: 'password1234' });
  });

  it('says the link is incomplete without a token', async () => {
    show('/auth/claim-account');
    await waitFor(() => expect(screen.getByRole('alert').textContent).toContain('incomplete'));
    expect(screen.queryByRole('button', { name: 'Claim account' })).toBeNull();
  });
});
