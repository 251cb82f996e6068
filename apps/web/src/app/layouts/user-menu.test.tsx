import { fireEvent, screen, waitFor } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { resetSession, setSession } from '../../lib/session/session-store';
import type { SessionState } from '../../lib/session/types';
import { renderWithProviders } from '../../test/render';
import { product, productIn, subject, subjectIn } from '../../test/sessions';
import { UserMenu } from './user-menu';

afterEach(() => resetSession());

/** As axe's label-content-name-mismatch compares: lower case, punctuation and spaces folded. */
const fold = (text: string) =>
  text
    .toLowerCase()
    .replace(/[\p{P}]/gu, '')
    .replace(/\s+/g, ' ')
    .trim();

function renderMenu() {
  const router = createMemoryRouter([{ path: '/', element: <UserMenu /> }], {
    initialEntries: ['/'],
  });
  renderWithProviders(<RouterProvider router={router} />);
  return screen.getByTestId('user-menu');
}

describe('the account menu button (WCAG 2.5.3, label in name)', () => {
  it.each([
    ['a product user', () => productIn(product({ first_name: 'Jordan', last_name: 'Lee' }))],
    ['a subject', () => subjectIn(subject({ first_name: 'Sam', last_name: 'Subject' }))],
  ])('for %s, its name starts with what it shows and says what it is', (_who, session) => {
    setSession(session());
    const button = renderMenu();
    const name = button.getAttribute('aria-label') ?? '';
    // What it shows: the initials, then the name (the name from 576 px up).
    const shown = fold(button.textContent ?? '');
    expect(shown).not.toBe('');
    expect(fold(name).startsWith(shown)).toBe(true);
    expect(name).toMatch(/account menu$/);
  });
});

describe('the account menu loads after the first paint (issue 28)', () => {
  /** The menu as a first visit sees it: its module not loaded yet (fresh module instances). */
  async function freshMenu(session: () => SessionState) {
    vi.resetModules();
    const store = await import('../../lib/session/session-store');
    const { renderWithProviders: render } = await import('../../test/render');
    const router = await import('react-router');
    const { UserMenu: Menu } = await import('./user-menu');
    store.setSession(session());
    const memory = router.createMemoryRouter([{ path: '/', element: <Menu /> }], {
      initialEntries: ['/'],
    });
    render(<router.RouterProvider router={memory} />);
    return screen.getByTestId('user-menu');
  }

  it('a press before the menu arrived opens it once it has', async () => {
    const button = await freshMenu(() => subjectIn(subject({ first_name: 'Sam' })));
    expect(button.getAttribute('aria-expanded')).toBe('false');
    fireEvent.click(button);
    const signOut = await screen.findByTestId('sign-out', {}, { timeout: 5000 });
    expect(signOut.textContent).toContain('Sign out');
    expect(screen.getByText('Your profile', { exact: true })).toBeTruthy();
    const opened = screen.getByTestId('user-menu');
    expect(opened).not.toBe(button);
    expect(opened.getAttribute('aria-expanded')).toBe('true');
  });

  it('is loaded without a press once the browser is idle', async () => {
    const button = await freshMenu(() => productIn(product({ first_name: 'Jordan' })));
    // The button without its menu is replaced by the menu's own, unpressed.
    await waitFor(() => expect(button.isConnected).toBe(false), { timeout: 5000 });
    expect(screen.getByTestId('user-menu').getAttribute('aria-expanded')).toBe('false');
    expect(screen.queryByTestId('sign-out')).toBeNull();
    fireEvent.click(screen.getByTestId('user-menu'));
    expect(await screen.findByText('Set up two-factor', { exact: true })).toBeTruthy();
  });
});
