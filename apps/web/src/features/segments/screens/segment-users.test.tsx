import type { Permission } from '@kestrel/domain';
import { fireEvent, screen, waitFor } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { resetSession, setSession } from '../../../lib/session/session-store';
import { type Call, mockFetch } from '../../../test/fetch-mock';
import { renderWithProviders } from '../../../test/render';
import { boot, product, productIn } from '../../../test/sessions';
import SegmentUsers from './segment-users';

const SEGMENT = {
  id: 7,
  name: 'North site',
  employer_name: 'Acme North Ltd',
  line_one: '1 Quay Street',
  line_two: '',
  town: 'Newcastle',
  postcode: 'NE1 3AF',
  contact_name: '',
  contact_email: '',
  contact_phone: '',
  user_count: 1,
  process_count: 0,
  created_at: '2026-11-01T10:00:00Z',
  updated_at: '2026-11-01T10:00:00Z',
};
const NELL = { id: 31, first_name: 'Nell', last_name: 'Norris', email: 'nell@north.test' };
const VERA = { id: 32, first_name: 'Vera', last_name: 'Viewer', email: 'vera@acme.test' };
const page = <T,>(rows: T[]) => ({ count: rows.length, next: null, previous: null, results: rows });

afterEach(() => {
  resetSession();
  vi.unstubAllGlobals();
});

function answer(call: Call) {
  const path = new URL(call.url, 'http://x').pathname;
  if (path === '/api/segments/7/') return { status: 200, body: SEGMENT };
  if (path === '/api/segments/7/users/' && call.method === 'GET')
    return { status: 200, body: page([{ ...NELL, is_active: true }]) };
  if (path === '/api/segments/7/users/' && call.method === 'POST')
    return { status: 201, body: { ...VERA, is_active: true } };
  if (path === '/api/segments/7/users/31/') return { status: 204 };
  if (path === '/api/users/')
    return { status: 200, body: page([{ ...VERA, is_active: true, roles: [] }]) };
  return { status: 404, body: {} };
}

function renderUsers(permissions: Permission[], segments: number[] = []) {
  const p = product({ session_permissions: permissions, roles: [], segments });
  setSession({ ...productIn(p), bootstrap: boot(p) });
  const router = createMemoryRouter([{ path: '/segments/:id/users', Component: SegmentUsers }], {
    initialEntries: ['/segments/7/users'],
  });
  renderWithProviders(<RouterProvider router={router} />);
}

describe('segment users', () => {
  it('lists the users; with change_segment one is removed and another added', async () => {
    const calls = mockFetch(answer);
    renderUsers(['segments.view_segment', 'segments.change_segment', 'users.view_productuser']);
    expect(await screen.findByText('Nell Norris')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Remove Nell Norris' }));
    await screen.findByText('Successfully deleted segment user');
    expect(
      calls.some((c) => c.method === 'DELETE' && c.url.endsWith('/api/segments/7/users/31/')),
    ).toBe(true);

    const picker = screen.getByLabelText('User of your organisation', { selector: 'input' });
    fireEvent.click(picker);
    fireEvent.change(picker, { target: { value: 'Vera' } });
    fireEvent.click(await screen.findByRole('option', { name: /Vera Viewer/, hidden: true }));
    fireEvent.click(screen.getByRole('button', { name: 'Add user' }));
    await screen.findByText('Successfully added segment user');
    const post = calls.find((c) => c.method === 'POST');
    expect(post?.body).toEqual({ user: 32 });
  });

  it('offers no remove or add to a user limited to segments, as the server refuses them', async () => {
    const calls = mockFetch(answer);
    renderUsers(['segments.view_segment', 'segments.change_segment'], [7]);
    expect(await screen.findByText('Nell Norris')).toBeTruthy();
    expect(
      await screen.findByText(
        'You are limited to segments, so only a user who is not can change who or what is in a segment.',
      ),
    ).toBeTruthy();
    expect(screen.queryByRole('button', { name: /Remove/ })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Add user' })).toBeNull();
    // editing the details stays theirs (the server allows it)
    expect(screen.getByRole('link', { name: 'Details' })).toBeTruthy();
    expect(calls.some((c) => c.method !== 'GET')).toBe(false);
  });

  it('offers no remove or add without change_segment', async () => {
    mockFetch(answer);
    renderUsers(['segments.view_segment']);
    expect(await screen.findByText('Nell Norris')).toBeTruthy();
    await waitFor(() => expect(screen.queryByRole('button', { name: /Remove/ })).toBeNull());
    expect(screen.queryByRole('button', { name: 'Add user' })).toBeNull();
    expect(screen.queryByRole('link', { name: 'Details' })).toBeNull();
  });
});
