import { screen } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { afterEach, describe, expect, it } from 'vitest';
import { resetSession } from '../../lib/session/session-store';
import { renderWithProviders } from '../../test/render';
import { AppFrame } from './app-frame';
import PublicLayout from './public-layout';
import { MAIN_ID } from './skip-link';

afterEach(() => resetSession());

const FOCUSABLE = 'a[href], button, input, select, textarea, [tabindex]:not([tabindex="-1"])';

function renderIn(element: React.ReactNode) {
  const router = createMemoryRouter(
    [{ path: '/', element, children: [{ index: true, element: <p>content</p> }] }],
    { initialEntries: ['/'] },
  );
  renderWithProviders(<RouterProvider router={router} />);
}

async function expectSkipLinkFirst() {
  await screen.findByText('content');
  const first = document.querySelector(FOCUSABLE);
  expect(first?.textContent).toBe('Skip to main content');
  expect(first?.getAttribute('href')).toBe(`#${MAIN_ID}`);
  const main = document.getElementById(MAIN_ID);
  expect(main?.tagName).toBe('MAIN');
  expect(main?.textContent).toContain('content');
}

describe('skip link', () => {
  it('is the first focusable element of the public layout', async () => {
    renderIn(<PublicLayout />);
    await expectSkipLinkFirst();
  });

  it('is the first focusable element of the signed-in frame', async () => {
    renderIn(
      <AppFrame
        home="/"
        nav={() => <a href="/cases">Cases</a>}
        header={<button type="button">Menu</button>}
      />,
    );
    await expectSkipLinkFirst();
  });
});
