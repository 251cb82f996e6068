import { type Permission, USER_ADMIN_MESSAGES } from '@kestrel/domain';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { resetSession, setSession } from '../../../lib/session/session-store';
import { type Call, mockFetch } from '../../../test/fetch-mock';
import { renderWithProviders } from '../../../test/render';
import { boot, product, productIn } from '../../../test/sessions';
import UserPage from './user';
import UserAdd from './user-add';
import UserEdit from './user-edit';
import Users from './users';

const at = '2026-11-01T10:00:00Z';
const MAYA = {
  id: 5,
  username: 'maya@acme.test',
  email: 'maya@acme.test',
  first_name: 'Maya',
  last_name: 'Okafor',
  job_title: 'Site manager',
  is_active: true,
  totp_enabled: false,
  created_at: at,
  roles: [2],
  status: 'active',
  last_login_at: at,
  segments: [9],
};
const REECE = {
  ...MAYA,
  id: 6,
  first_name: 'Reece',
  last_name: 'Tanner',
  status: 'invited',
  last_login_at: null,
  segments: [],
};
const ROLES = [
  {
    id: 1,
    name: 'admin',
    permissions: ['users.change_productuser'],
    built_in: true,
    user_count: 1,
  },
  {
    id: 2,
    name: 'Site manager',
    permissions: ['cases.view_case', 'cases.add_case'],
    built_in: false,
    user_count: 2,
  },
];
const page = <T,>(rows: T[]) => ({ count: rows.length, next: null, previous: null, results: rows });

afterEach(() => {
  resetSession();
  vi.unstubAllGlobals();
});

function answer(call: Call) {
  const url = new URL(call.url, 'http://x');
  if (url.pathname === '/api/roles/') return { status: 200, body: page(ROLES) };
  if (url.pathname === '/api/segments/')
    return { status: 200, body: page([{ id: 9, name: 'North site' }]) };
  if (url.pathname === '/api/users/') {
    const status = url.searchParams.get('status');
    return { status: 200, body: page([MAYA, REECE].filter((u) => !status || u.status === status)) };
  }
  if (url.pathname === '/api/users/6/') return { status: 200, body: REECE };
  if (url.pathname === '/api/users/5/') return { status: 200, body: MAYA };
  if (url.pathname === '/api/users/5/deactivate/')
    return { status: 200, body: { ...MAYA, status: 'deactivated', is_active: false } };
  return { status: 404, body: {} };
}

function render(path: string, permissions: Permission[]) {
  const p = product({ session_permissions: permissions });
  setSession({ ...productIn(p), bootstrap: boot(p) });
  const router = createMemoryRouter(
    [
      { path: '/users', Component: Users },
      { path: '/users/add', Component: UserAdd },
      { path: '/users/:id', Component: UserPage },
      { path: '/users/:id/edit', Component: UserEdit },
    ],
    { initialEntries: [path] },
  );
  renderWithProviders(<RouterProvider router={router} />);
  return router;
}

const ALL: Permission[] = [
  'users.view_productuser',
  'users.add_productuser',
  'users.change_productuser',
  'users.delete_productuser',
  'roles.view_role',
  'roles.add_role',
  'roles.change_role',
  'roles.delete_role',
];

describe('users', () => {
  it('lists users with status, roles and last sign-in; the status filter is in the URL', async () => {
    const calls = mockFetch(answer);
    render('/users?status=invited', ALL);
    expect(await screen.findByText('Reece Tanner')).toBeTruthy();
    expect(screen.queryByText('Maya Okafor')).toBeNull();
    expect(screen.getAllByText('Invited').length).toBeGreaterThan(0);
    expect(
      calls.some((c) => c.url.includes('/api/users/') && c.url.includes('status=invited')),
    ).toBe(true);
    expect(screen.getByRole('link', { name: 'Add user' })).toBeTruthy();
  });

  it('the Roles tab shows permissions in words; a custom unheld role could be deleted, a held one not', async () => {
    mockFetch(answer);
    render('/users?tab=roles', ALL);
    expect(await screen.findByText('View cases · Add cases')).toBeTruthy();
    expect(screen.getByText('Built-in')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Edit Site manager' })).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Delete Site manager' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Edit admin' })).toBeNull();
  });

  it('offers no add, edit or role buttons without the permissions', async () => {
    mockFetch(answer);
    render('/users', ['users.view_productuser']);
    expect(await screen.findByText('Maya Okafor')).toBeTruthy();
    expect(screen.queryByRole('link', { name: 'Add user' })).toBeNull();
    expect(screen.queryByRole('tab', { name: 'Roles' })).toBeNull();
  });
});

describe('a user', () => {
  it('shows roles, segments and last sign-in; deactivates after a confirmation', async () => {
    const calls = mockFetch(answer);
    render('/users/5', ALL);
    expect(await screen.findByText('North site')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Deactivate' }));
    await screen.findByText(/They are signed out at once/);
    fireEvent.click(within(screen.getByRole('dialog')).getByRole('button', { name: 'Deactivate' }));
    await waitFor(() =>
      expect(
        calls.some((c) => c.method === 'POST' && c.url.endsWith('/api/users/5/deactivate/')),
      ).toBe(true),
    );
  });

  it('an invited user can have the invitation resent; no buttons without permissions', async () => {
    mockFetch(answer);
    render('/users/6', ['users.view_productuser']);
    expect(await screen.findByText('Never signed in')).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Resend invitation' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Deactivate' })).toBeNull();
  });
});

// Decision 028: no one gives more than they hold. The screens offer only what the server allows.
describe('giving no more than one holds', () => {
  const LIMITED = USER_ADMIN_MESSAGES.grantRoleHint;

  it('a role gains only permissions the user holds; those it has may be taken away', async () => {
    mockFetch(answer);
    render('/users?tab=roles', ALL);
    fireEvent.click(await screen.findByRole('button', { name: 'Edit Site manager' }));
    const dialog = await screen.findByRole('dialog');
    expect(within(dialog).getByText(USER_ADMIN_MESSAGES.grantPermissionHint)).toBeTruthy();
    const box = (name: string) =>
      within(dialog).getByRole('checkbox', { name }) as HTMLInputElement;
    expect(box('View cases').disabled).toBe(false);
    expect(box('Change cases').disabled).toBe(true);
    expect(box('View users').disabled).toBe(false);
  });

  it('a role with a permission the user lacks cannot be given to a new colleague', async () => {
    mockFetch(answer);
    render('/users/add', ALL);
    expect(await screen.findByText(new RegExp(LIMITED))).toBeTruthy();
  });

  it('a role the user being edited holds already may stay', async () => {
    mockFetch(answer);
    render('/users/5/edit', ALL);
    // Maya holds Site manager (its pill drawn once the roles are read): nothing is held back
    expect((await screen.findAllByText('Site manager')).length).toBeGreaterThan(0);
    expect(screen.getByText(/Roles tab of Users/)).toBeTruthy();
    expect(screen.queryByText(new RegExp(LIMITED))).toBeNull();
  });
});
