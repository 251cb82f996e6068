import { screen } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { afterEach, describe, expect, it } from 'vitest';
import { resetSession, setSession } from '../../lib/session/session-store';
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
