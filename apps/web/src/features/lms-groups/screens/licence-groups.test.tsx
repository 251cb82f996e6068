import type { Permission } from '@kestrel/domain';
import { fireEvent, screen, waitFor } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { resetSession, setSession } from '../../../lib/session/session-store';
import { type Call, mockFetch } from '../../../test/fetch-mock';
import { renderWithProviders } from '../../../test/render';
import { boot, product, productIn } from '../../../test/sessions';
import LicenceGroupOverview from './licence-group';
import LicenceGroupAdd from './licence-group-add';
import LicenceGroupDetails from './licence-group-details';
import LicenceGroups from './licence-groups';
import LicenceSubGroupPage from './licence-sub-group';
import LicenceSubGroupAdd from './licence-sub-group-add';

const GROUP = {
  id: 3,
  name: 'Taxi and private hire',
  description: 'Drivers, operators and vehicles.',
  is_published: true,
  sub_group_count: 1,
  licence_count: 4,
  created_at: '2026-11-01T10:00:00Z',
  updated_at: '2026-11-01T10:00:00Z',
};
const SUB = {
  id: 7,
  group: 3,
  group_name: 'Taxi and private hire',
  name: 'Hackney carriage driver',
  code: 'HCD',
  description: '',
  is_published: false,
  definition_count: 1,
  created_at: '2026-11-01T10:00:00Z',
  updated_at: '2026-11-01T10:00:00Z',
};
const DEFINITION = {
  id: 11,
  sub_group: 7,
  sub_group_name: 'Hackney carriage driver',
  group: 3,
  group_name: 'Taxi and private hire',
  name: 'Hackney carriage driver licence (3 years)',
  description: '',
  duration_years: 3,
  duration_text: '3 years',
  fee_pence: 15000,
  fee_display: '£150.00',
  requirements: [],
  documents: [],
  declarations: [],
  is_published: true,
  portal_count: 1,
  created_at: '2026-11-01T10:00:00Z',
  updated_at: '2026-11-01T10:00:00Z',
};
const page = <T,>(rows: T[]) => ({ count: rows.length, next: null, previous: null, results: rows });

afterEach(() => {
  resetSession();
  vi.unstubAllGlobals();
});

function answer(call: Call) {
  const url = new URL(call.url, 'http://x');
  const path = url.pathname;
  if (path === '/api/lms/licence-groups/' && call.method === 'GET')
    return { status: 200, body: page([GROUP]) };
  if (path === '/api/lms/licence-groups/3/') return { status: 200, body: GROUP };
  if (path === '/api/lms/licence-sub-groups/' && call.method === 'GET')
    return { status: 200, body: page(url.searchParams.get('group') === '3' ? [SUB] : []) };
  if (path === '/api/lms/licence-sub-groups/7/') return { status: 200, body: SUB };
  if (path === '/api/lms/definitions/')
    return {
      status: 200,
      body: page(url.searchParams.get('sub_group') === '7' ? [DEFINITION] : []),
    };
  return { status: 404, body: {} };
}

const ALL: Permission[] = [
  'lms_definitions.view_definition',
  'lms_definitions.add_definition',
  'lms_definitions.change_definition',
];

function renderAt(url: string, permissions: Permission[] = ALL) {
  const p = product({ session_permissions: permissions });
  setSession({ ...productIn(p), bootstrap: boot(p) });
  const router = createMemoryRouter(
    [
      { path: '/licence-groups', Component: LicenceGroups },
      { path: '/licence-groups/add', Component: LicenceGroupAdd },
      { path: '/licence-groups/:id', Component: LicenceGroupOverview },
      { path: '/licence-groups/:id/details', Component: LicenceGroupDetails },
      { path: '/licence-groups/:id/sub-groups/add', Component: LicenceSubGroupAdd },
      { path: '/licence-groups/:id/sub-groups/:subGroupId', Component: LicenceSubGroupPage },
    ],
    { initialEntries: [url] },
  );
  renderWithProviders(<RouterProvider router={router} />);
  return router;
}

describe('licence groups', () => {
  it('lists the groups with their counts, each a link to its page', async () => {
    mockFetch(answer);
    renderAt('/licence-groups');
    const link = await screen.findByRole('link', { name: 'Taxi and private hire' });
    expect(link.getAttribute('href')).toBe('/licence-groups/3');
    expect(screen.getByText('Published')).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Add licence group' })).toBeTruthy();
  });

  it('offers no add or edit to who may only view', async () => {
    mockFetch(answer);
    renderAt('/licence-groups/3', ['lms_definitions.view_definition']);
    expect(await screen.findByRole('link', { name: 'Hackney carriage driver' })).toBeTruthy();
    expect(screen.queryByRole('link', { name: 'Details' })).toBeNull();
    expect(screen.queryByRole('link', { name: 'Add sub-group' })).toBeNull();
    expect(screen.queryByRole('link', { name: 'Edit details' })).toBeNull();
  });

  it("shows the group's overview: description, counts, its sub-groups and its licences", async () => {
    mockFetch(answer);
    renderAt('/licence-groups/3');
    expect(await screen.findByText('Drivers, operators and vehicles.')).toBeTruthy();
    expect(screen.getByText('1 sub-group · 4 licences')).toBeTruthy();
    expect(
      (await screen.findByRole('link', { name: 'Hackney carriage driver' })).getAttribute('href'),
    ).toBe('/licence-groups/3/sub-groups/7');
    expect(screen.getByRole('link', { name: 'See the licences' }).getAttribute('href')).toBe(
      '/licences?group=3',
    );
  });

  it('checks the name in the browser before sending', async () => {
    const calls = mockFetch(answer);
    renderAt('/licence-groups/add');
    fireEvent.click(await screen.findByRole('button', { name: 'Add licence group' }));
    expect((await screen.findAllByText('Required')).length).toBeGreaterThan(0);
    expect(calls.some((c) => c.method === 'POST')).toBe(false);
  });

  it('adds a group and opens its page', async () => {
    const calls = mockFetch((call) =>
      call.method === 'POST' ? { status: 201, body: { ...GROUP, id: 3 } } : answer(call),
    );
    const router = renderAt('/licence-groups/add');
    fireEvent.change(await screen.findByLabelText(/^Name/), {
      target: { value: 'Street trading' },
    });
    fireEvent.click(screen.getByLabelText(/^Published/));
    fireEvent.click(screen.getByRole('button', { name: 'Add licence group' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/licence-groups/3'));
    expect(calls.find((c) => c.method === 'POST')?.body).toEqual({
      name: 'Street trading',
      description: '',
      is_published: true,
    });
  });

  it("puts the server's 400 on the fields of the details form", async () => {
    const calls = mockFetch((call) =>
      call.method === 'PUT'
        ? { status: 400, body: { name: ['Ensure this field has no more than 100 characters.'] } }
        : answer(call),
    );
    renderAt('/licence-groups/3/details');
    const name = await screen.findByLabelText(/^Name/);
    expect((name as HTMLInputElement).value).toBe('Taxi and private hire');
    fireEvent.change(name, { target: { value: 'Taxis' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save changes' }));
    await waitFor(() =>
      expect(
        screen.getAllByText('Ensure this field has no more than 100 characters.').length,
      ).toBeGreaterThan(0),
    );
    expect(calls.find((c) => c.method === 'PUT')?.body).toEqual({
      name: 'Taxis',
      description: 'Drivers, operators and vehicles.',
      is_published: true,
    });
  });
});

describe('sub-groups', () => {
  it('adds a sub-group to the group, its code upper-cased, and opens it', async () => {
    const calls = mockFetch((call) =>
      call.method === 'POST' ? { status: 201, body: SUB } : answer(call),
    );
    const router = renderAt('/licence-groups/3/sub-groups/add');
    fireEvent.change(await screen.findByLabelText(/^Name/), {
      target: { value: 'Hackney carriage driver' },
    });
    fireEvent.change(screen.getByLabelText(/^Code/), { target: { value: 'hcd' } });
    fireEvent.click(screen.getByRole('button', { name: 'Add sub-group' }));
    await waitFor(() =>
      expect(router.state.location.pathname).toBe('/licence-groups/3/sub-groups/7'),
    );
    expect(calls.find((c) => c.method === 'POST')?.body).toEqual({
      name: 'Hackney carriage driver',
      code: 'HCD',
      description: '',
      is_published: false,
      group: 3,
    });
  });

  it('refuses a code of other characters in the browser', async () => {
    const calls = mockFetch(answer);
    renderAt('/licence-groups/3/sub-groups/add');
    fireEvent.change(await screen.findByLabelText(/^Name/), { target: { value: 'Vehicles' } });
    fireEvent.change(screen.getByLabelText(/^Code/), { target: { value: 'VEH-1' } });
    fireEvent.click(screen.getByRole('button', { name: 'Add sub-group' }));
    expect((await screen.findAllByText('Use 1 to 10 letters or digits.')).length).toBeGreaterThan(
      0,
    );
    expect(calls.some((c) => c.method === 'POST')).toBe(false);
  });

  it('edits a sub-group and lists its definitions with links to them', async () => {
    const calls = mockFetch((call) =>
      call.method === 'PUT' ? { status: 200, body: { ...SUB, is_published: true } } : answer(call),
    );
    renderAt('/licence-groups/3/sub-groups/7');
    const link = await screen.findByRole('link', {
      name: 'Hackney carriage driver licence (3 years)',
    });
    expect(link.getAttribute('href')).toBe('/definitions/11');
    expect(screen.getByText('£150.00')).toBeTruthy();
    fireEvent.click(screen.getByLabelText(/^Published/));
    fireEvent.click(screen.getByRole('button', { name: 'Save changes' }));
    await waitFor(() => expect(calls.some((c) => c.method === 'PUT')).toBe(true));
    const put = calls.find((c) => c.method === 'PUT');
    expect(put?.url).toContain('/api/lms/licence-sub-groups/7/');
    expect(put?.body).toEqual({
      name: 'Hackney carriage driver',
      code: 'HCD',
      description: '',
      is_published: true,
    });
  });

  it("does not show another group's sub-group under this group", async () => {
    mockFetch((call) =>
      call.url.includes('/licence-sub-groups/7/')
        ? { status: 200, body: { ...SUB, group: 99 } }
        : answer(call),
    );
    renderAt('/licence-groups/3/sub-groups/7');
    expect(await screen.findByText('This sub-group could not be found.')).toBeTruthy();
  });
});
