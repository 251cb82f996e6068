import { fireEvent, screen } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { afterEach, describe, expect, it } from 'vitest';
import { resetSession, setSession } from '../../lib/session/session-store';
import { renderWithProviders } from '../../test/render';
import { product, productIn } from '../../test/sessions';
import ProductLayout from './product-layout';

afterEach(() => resetSession());

/** The product frame on the two-factor set-up screen, for a user with or without that duty. */
async function renderFrame(totpSetupRequired: boolean) {
  setSession(productIn(product({ first_name: 'Wren', totp_setup_required: totpSetupRequired })));
  const router = createMemoryRouter(
    [
      {
        path: '/',
        element: <ProductLayout />,
        children: [{ path: 'profile/totp', element: <p>set-up screen</p> }],
      },
    ],
    { initialEntries: ['/profile/totp'] },
  );
  renderWithProviders(<RouterProvider router={router} />);
  await screen.findByText('set-up screen');
}

/** Opens the account menu (loaded after the first paint) and answers its items' names. */
async function accountMenuItems(): Promise<string[]> {
  fireEvent.click(screen.getByTestId('user-menu'));
  const signOut = await screen.findByTestId('sign-out', {}, { timeout: 5000 });
  const menu = signOut.closest('[role="menu"]');
  return [...(menu?.querySelectorAll('[role="menuitem"]') ?? [])].map((item) =>
    (item.textContent ?? '').trim(),
  );
}

describe('the frame while the organisation requires two-factor the user has not set up', () => {
  it('offers only setting it up and signing out: no navigation, no profile', async () => {
    await renderFrame(true);
    expect(screen.queryByRole('navigation', { name: 'Main' })).toBeNull();
    expect(screen.queryByRole('link', { name: 'Cases' })).toBeNull();
    expect(document.querySelector('[aria-label="Toggle navigation"]')).toBeNull();
    // the brand mark leads back to the set-up, not to a dashboard it may not open; besides it,
    // only the skip link
    const links = screen.getAllByRole('link').map((link) => link.getAttribute('href'));
    expect(links).toEqual(['#main-content', '/profile/totp']);
    const items = await accountMenuItems();
    expect(items).toEqual(['Set up two-factor', 'Dark mode', 'Sign out']);
  });

  it('keeps the whole navigation and menu once two-factor is not required', async () => {
    await renderFrame(false);
    const nav = screen.getByRole('navigation', { name: 'Main' });
    expect(nav.querySelector('a[href="/cases"]')?.textContent).toContain('Cases');
    expect(document.querySelector('[aria-label="Toggle navigation"]')).not.toBeNull();
    const items = await accountMenuItems();
    expect(items).toEqual(['Your profile', 'Set up two-factor', 'Dark mode', 'Sign out']);
  });
});
