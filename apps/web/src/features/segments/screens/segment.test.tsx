import type { Permission } from '@kestrel/domain';
import { screen } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { resetSession, setSession } from '../../../lib/session/session-store';
import { type Call, mockFetch } from '../../../test/fetch-mock';
import { renderWithProviders } from '../../../test/render';
import { boot, product, productIn } from '../../../test/sessions';
import SegmentOverview from './segment';

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
  process_count: 2,
  created_at: '2026-11-01T10:00:00Z',
  updated_at: '2026-11-01T10:00:00Z',
};

afterEach(() => {
  resetSession();
  vi.unstubAllGlobals();
});

function answer(call: Call) {
  const path = new URL(call.url, 'http://x').pathname;
  if (path === '/api/segments/7/') return { status: 200, body: SEGMENT };
  return { status: 404, body: {} };
}

function renderOverview(segments: number[], roles: string[] = []) {
  const permissions: Permission[] = [
    'segments.view_segment',
    'segments.change_segment',
    'segments.delete_segment',
  ];
  const p = product({ session_permissions: permissions, roles, segments });
  setSession({ ...productIn(p), bootstrap: boot(p) });
  const router = createMemoryRouter([{ path: '/segments/:id', Component: SegmentOverview }], {
    initialEntries: ['/segments/7'],
  });
  renderWithProviders(<RouterProvider router={router} />);
}

describe('segment overview', () => {
  it('offers a user not limited to segments every change', async () => {
    mockFetch(answer);
    renderOverview([]);
    expect(await screen.findByRole('link', { name: 'Add or remove users' })).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Assign or unassign processes' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Delete segment' })).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Edit details' })).toBeTruthy();
  });

  it('offers a limited user only what the server allows them: the details', async () => {
    mockFetch(answer);
    renderOverview([7]);
    expect(await screen.findByRole('link', { name: 'See the users' })).toBeTruthy();
    expect(screen.getByRole('link', { name: 'See the processes' })).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Delete segment' })).toBeNull();
    expect(screen.queryByRole('link', { name: 'Add or remove users' })).toBeNull();
    expect(screen.getByRole('link', { name: 'Edit details' })).toBeTruthy();
  });
});
