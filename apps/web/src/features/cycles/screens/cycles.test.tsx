import type { Permission } from '@kestrel/domain';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { resetSession, setSession } from '../../../lib/session/session-store';
import { type Call, mockFetch } from '../../../test/fetch-mock';
import { renderWithProviders } from '../../../test/render';
import { boot, product, productIn } from '../../../test/sessions';
import CycleAdd from './cycle-add';
import CycleEdit from './cycle-edit';
import Cycles from './cycles';

const PROCESS = {
  id: 5,
  name: 'Drivers',
  is_active: true,
  requirements: [{ activity_type: 'dbs-update', config: {} }],
};
const CYCLE = {
  id: 9,
  process: 5,
  process_name: 'Drivers',
  name: 'Update service',
  requirements: ['dbs-update', 'driver-data'],
  repeat_interval: 6,
  repeat_unit: 'monthly',
  repeat_text: 'Every 6 months',
  billing_interval: 1,
  billing_triggered: 'yearly',
  billing_text: 'Every year',
  price_pence: 1250,
  price_display: '£12.50',
  price_incomplete: false,
  is_active: true,
  subscription_count: 2,
  created_at: '2026-11-01T10:00:00Z',
  updated_at: '2026-11-01T10:00:00Z',
};
const activityTypes = [
  { id: 1, code: 'dbs-update', name: 'DBS update service', kind: 'dbs-update' },
  { id: 2, code: 'driver-data', name: 'Driver data', kind: 'driver-data' },
];
const page = <T,>(rows: T[]) => ({ count: rows.length, next: null, previous: null, results: rows });
const IN_USE = 'This cycle has active subscriptions: end them before deleting it.';

afterEach(() => {
  resetSession();
  vi.unstubAllGlobals();
});

function answer(call: Call) {
  const path = new URL(call.url, 'http://x').pathname;
  if (path === '/api/processes/5/') return { status: 200, body: PROCESS };
  if (path === '/api/processes/5/cycles/' && call.method === 'GET')
    return { status: 200, body: page([CYCLE]) };
  if (path === '/api/processes/5/cycles/9/' && call.method === 'GET')
    return { status: 200, body: CYCLE };
  if (path === '/api/processes/5/cycles/9/' && call.method === 'DELETE')
    return { status: 400, body: { non_field_errors: [IN_USE] } };
  return { status: 404, body: {} };
}

const ALL: Permission[] = [
  'processes.view_process',
  'cycles.view_cycle',
  'cycles.add_cycle',
  'cycles.change_cycle',
];

function renderAt(url: string, permissions: Permission[] = ALL, entitlements = ['cycles']) {
  const p = product({ session_permissions: permissions });
  setSession({ ...productIn(p), bootstrap: { ...boot(p, entitlements), activityTypes } });
  const router = createMemoryRouter(
    [
      { path: '/processes/:id/cycles', Component: Cycles },
      { path: '/processes/:id/cycles/add', Component: CycleAdd },
      { path: '/processes/:id/cycles/:cycleId/edit', Component: CycleEdit },
    ],
    { initialEntries: [url] },
  );
  renderWithProviders(<RouterProvider router={router} />);
  return router;
}

describe('process cycles', () => {
  it('lists the cycles in words, with the cycles tab in the process frame', async () => {
    mockFetch(answer);
    renderAt('/processes/5/cycles');
    expect(await screen.findByText('Update service')).toBeTruthy();
    expect(screen.getByText('DBS update service, Driver data')).toBeTruthy();
    expect(screen.getByText('Every 6 months')).toBeTruthy();
    expect(screen.getByText('Every year')).toBeTruthy();
    expect(screen.getByText('£12.50')).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Cycles' })).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Edit Update service' }).getAttribute('href')).toBe(
      '/processes/5/cycles/9/edit',
    );
  });

  it('hides the tab, add, edit and delete without the entitlement and change rights', async () => {
    mockFetch(answer);
    renderAt('/processes/5/cycles', ['processes.view_process', 'cycles.view_cycle'], []);
    expect(await screen.findByText('Update service')).toBeTruthy();
    expect(screen.queryByRole('link', { name: 'Cycles' })).toBeNull();
    expect(screen.queryByRole('link', { name: 'Add cycle' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Delete Update service' })).toBeNull();
  });

  it("shows the server's refusal to delete a cycle in use in the dialog", async () => {
    const calls = mockFetch(answer);
    renderAt('/processes/5/cycles');
    fireEvent.click(await screen.findByRole('button', { name: 'Delete Update service' }));
    const dialog = await screen.findByRole('dialog');
    fireEvent.click(within(dialog).getByRole('button', { name: 'Delete' }));
    expect(await within(dialog).findByText(IN_USE)).toBeTruthy();
    expect(calls.some((c) => c.method === 'DELETE')).toBe(true);
  });
});

describe('add and edit cycle', () => {
  it('checks the fields in the browser before sending', async () => {
    const calls = mockFetch(answer);
    renderAt('/processes/5/cycles/add');
    fireEvent.click(await screen.findByRole('button', { name: 'Add cycle' }));
    expect((await screen.findAllByText('Choose at least one requirement.')).length).toBeGreaterThan(
      0,
    );
    expect(calls.some((c) => c.method === 'POST')).toBe(false);
  });

  it("puts the server's 400 field errors on the fields", async () => {
    const calls = mockFetch((call) =>
      call.method === 'PUT'
        ? { status: 400, body: { name: ['A cycle of this process has this name.'] } }
        : answer(call),
    );
    renderAt('/processes/5/cycles/9/edit');
    const name = await screen.findByLabelText(/^Name/);
    expect((name as HTMLInputElement).value).toBe('Update service');
    fireEvent.change(name, { target: { value: 'Yearly' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save cycle' }));
    await waitFor(() =>
      expect(screen.getAllByText('A cycle of this process has this name.').length).toBeGreaterThan(
        0,
      ),
    );
    const put = calls.find((c) => c.method === 'PUT');
    expect(put?.body).toEqual({
      name: 'Yearly',
      requirements: ['dbs-update', 'driver-data'],
      repeat_interval: 6,
      repeat_unit: 'monthly',
      billing_interval: 1,
      billing_triggered: 'yearly',
      is_active: true,
    });
  });

  it('adds a cycle and returns to the list', async () => {
    const calls = mockFetch((call) =>
      call.method === 'POST' ? { status: 201, body: { ...CYCLE, id: 10 } } : answer(call),
    );
    const router = renderAt('/processes/5/cycles/add');
    fireEvent.change(await screen.findByLabelText(/^Name/), { target: { value: 'Driving' } });
    const picker = screen.getByLabelText(/^Requirements/, { selector: 'input' });
    fireEvent.click(picker);
    fireEvent.click(await screen.findByRole('option', { name: 'Driver data', hidden: true }));
    fireEvent.change(screen.getByLabelText(/^Repeat every/), { target: { value: '12' } });
    fireEvent.click(screen.getByRole('button', { name: 'Add cycle' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/processes/5/cycles'));
    const post = calls.find((c) => c.method === 'POST');
    expect(post?.body).toMatchObject({
      name: 'Driving',
      requirements: ['driver-data'],
      repeat_interval: 12,
      repeat_unit: 'monthly',
    });
  });
});
