import { screen, waitFor } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { getSession, resetSession, setSession } from '../../lib/session/session-store';
import { mockFetch } from '../../test/fetch-mock';
import { renderWithProviders } from '../../test/render';
import BootstrapPage from './bootstrap-page';

const profile = {
  id: 1,
  user_type: 'ProductUser',
  first_name: 'Ada',
  last_name: 'Admin',
  username: 'admin@acme.test',
  job_title: '',
  dark_mode: false,
  totp_enabled: false,
  totp_setup_required: false,
  notifications: true,
  avatar: null,
  roles: ['admin'],
  is_ops: false,
  customer: { id: 1, name: 'Acme', demo_mode: false },
  session_permissions: ['cases.view_case'],
  entitlements: [],
  terms_agreed_at: null,
};
const page = (results: unknown[], count = results.length) => ({
  count,
  next: null,
  previous: null,
  results,
});

function renderAt(path: string) {
  const router = createMemoryRouter(
    [
      { path: '/bootstrap', Component: BootstrapPage },
      { path: '/cases', element: <p>cases screen</p> },
    ],
    { initialEntries: [path] },
  );
  renderWithProviders(<RouterProvider router={router} />);
  return router;
}

beforeEach(() => {
  resetSession();
  setSession({ status: 'logged-in', userType: 'ProductUser', sessionCustomer: 1 });
});
afterEach(() => vi.unstubAllGlobals());

describe('bootstrap', () => {
  it('loads profile, content types, every page of activity types, verbs, entitlements, flags and countries, then goes on', async () => {
    const calls = mockFetch((c) => {
      const url = new URL(c.url, 'http://x');
      switch (url.pathname) {
        case '/api/user/':
          return { status: 200, body: profile };
        case '/api/activity-types/': {
          const n = url.searchParams.get('page') === '1' ? 100 : 20;
          return {
            status: 200,
            body: page(
              Array.from({ length: n }, (_, i) => ({ id: i, code: `a${i}`, name: 'A', kind: 'x' })),
              120,
            ),
          };
        }
        case '/api/entitlements/':
          return { status: 200, body: page([{ id: 1, entitlement: 'cycles' }]) };
        case '/api/flags/active-count/':
          return { status: 200, body: { active: 3 } };
        case '/api/countries/':
          return {
            status: 200,
            body: {
              GBR: {
                name: 'United Kingdom',
                nationality: 'British',
                deprecated: false,
                ebulk_missing: false,
              },
            },
          };
        default:
          return { status: 200, body: page([]) };
      }
    });
    const router = renderAt('/bootstrap?next=%2Fcases');
    await screen.findByText('cases screen');
    expect(router.state.location.pathname).toBe('/cases');
    const data = getSession().bootstrap;
    expect(data?.activityTypes).toHaveLength(120);
    expect(data?.entitlements).toEqual(['cycles']);
    expect(data?.activeFlags).toBe(3);
    expect(Object.keys(data?.countries ?? {})).toEqual(['GBR']);
    expect(calls.map((c) => c.url)).toContain('/api/content-types/?page_size=100');
  });

  it('says "Error in bootstrap promises" when a call fails, and offers a retry', async () => {
    mockFetch((c) =>
      c.url.startsWith('/api/verbs/')
        ? { status: 500, body: {} }
        : { status: 200, body: c.url.startsWith('/api/user/') ? profile : page([]) },
    );
    renderAt('/bootstrap?next=%2Fcases');
    expect((await screen.findByTestId('bootstrap-error')).textContent).toBe(
      'Error in bootstrap promises',
    );
    expect(screen.getByRole('button', { name: 'Try again' })).toBeInTheDocument();
    await waitFor(() => expect(getSession().bootstrap).toBeNull());
  });

  it('goes on with a badge of 0 when the flags count is refused (a role without flags)', async () => {
    mockFetch((c) => {
      const path = new URL(c.url, 'http://x').pathname;
      if (path === '/api/user/') return { status: 200, body: profile };
      if (path === '/api/flags/active-count/') {
        return {
          status: 403,
          body: { detail: 'You do not have permission to perform this action.' },
        };
      }
      if (path === '/api/countries/') return { status: 200, body: {} };
      return { status: 200, body: page([]) };
    });
    renderAt('/bootstrap?next=%2Fcases');
    await screen.findByText('cases screen');
    expect(getSession().bootstrap?.activeFlags).toBe(0);
  });

  it('uses the subject endpoints for subjects', async () => {
    setSession({ userType: 'SubjectUser', sessionCustomer: null });
    const calls = mockFetch((c) =>
      c.url.startsWith('/api/user/')
        ? {
            status: 200,
            body: {
              ...profile,
              user_type: 'SubjectUser',
              dob: '1990-01-01',
              terms_agreed_at: '2026-01-01',
            },
          }
        : c.url.startsWith('/api/s/cases/country-map/')
          ? { status: 200, body: {} }
          : { status: 200, body: page([]) },
    );
    renderAt('/bootstrap?next=%2Fcases');
    await screen.findByText('cases screen');
    expect(calls.map((c) => new URL(c.url, 'http://x').pathname).sort()).toEqual([
      '/api/s/cases/country-map/',
      '/api/s/content-types/',
      '/api/user/',
    ]);
  });
});
