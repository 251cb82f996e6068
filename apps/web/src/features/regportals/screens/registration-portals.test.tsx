import type { Permission, RegPortalOut } from '@kestrel/domain';
import { fireEvent, screen, waitFor } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { resetSession, setSession } from '../../../lib/session/session-store';
import { type Call, mockFetch } from '../../../test/fetch-mock';
import { renderWithProviders } from '../../../test/render';
import { boot, product, productIn } from '../../../test/sessions';
import RegistrationPortalAdd from './registration-portal-add';
import RegistrationPortalEdit from './registration-portal-edit';
import RegistrationPortals from './registration-portals';

const PROCESS = { id: 5, name: 'Drivers', is_active: true, requirements: [] };
const PORTAL: RegPortalOut = {
  id: 7,
  process_id: 5,
  segment_id: 3,
  segment_name: 'North depot',
  path: 'drivers-2027',
  title: 'Drivers 2027',
  introduction: 'Register for your driver checks.',
  payer: 'subject',
  ask_email: 'required',
  ask_dob: 'required',
  ask_phone: 'optional',
  open: true,
  registration_limit: 2,
  closes_on: null,
  registration_count: 2,
  public_link: '/self-initiate/3/drivers-2027',
  created_at: '2026-11-01T10:00:00Z',
  updated_at: '2026-11-01T10:00:00Z',
};
const SEGMENT = { id: 3, name: 'North depot' };
const page = <T,>(rows: T[]) => ({ count: rows.length, next: null, previous: null, results: rows });
const TAKEN = 'This segment already has a registration portal with this path.';

afterEach(() => {
  resetSession();
  vi.unstubAllGlobals();
});

function answer(call: Call) {
  const path = new URL(call.url, 'http://x').pathname;
  if (path === '/api/processes/5/') return { status: 200, body: PROCESS };
  if (path === '/api/segments/') return { status: 200, body: page([SEGMENT]) };
  if (path === '/api/processes/5/registration-portals/' && call.method === 'GET')
    return { status: 200, body: page([PORTAL]) };
  if (path === '/api/processes/5/registration-portals/7/' && call.method === 'GET')
    return { status: 200, body: PORTAL };
  return { status: 404, body: {} };
}

const ALL: Permission[] = [
  'processes.view_process',
  'registration_portals.view_registrationportal',
  'registration_portals.add_registrationportal',
  'registration_portals.change_registrationportal',
];

function renderAt(url: string, permissions: Permission[] = ALL, entitlements = ['regportals']) {
  const p = product({ session_permissions: permissions });
  setSession({ ...productIn(p), bootstrap: boot(p, entitlements) });
  const router = createMemoryRouter(
    [
      { path: '/processes/:id/registration-portals', Component: RegistrationPortals },
      { path: '/processes/:id/registration-portals/add', Component: RegistrationPortalAdd },
      {
        path: '/processes/:id/registration-portals/:regPortalId/edit',
        Component: RegistrationPortalEdit,
      },
    ],
    { initialEntries: [url] },
  );
  renderWithProviders(<RouterProvider router={router} />);
  return router;
}

describe("a process's registration portals", () => {
  it('lists each with its public link, state, payer and count, in the tab of the process', async () => {
    mockFetch(answer);
    renderAt('/processes/5/registration-portals');
    expect(await screen.findByText('Drivers 2027')).toBeTruthy();
    expect(screen.getByTestId('public-link').textContent).toBe('/self-initiate/3/drivers-2027');
    // 2 of a limit of 2: full.
    expect(screen.getByText('Full')).toBeTruthy();
    expect(screen.getByText('The person registering')).toBeTruthy();
    expect(
      screen.getByRole('link', { name: 'Registrations of Drivers 2027: 2 of 2' }),
    ).toBeTruthy();
    expect(
      screen
        .getByRole('link', { name: 'Registrations of Drivers 2027: 2 of 2' })
        .getAttribute('href'),
    ).toBe('/subjects/registrations?process=5&reg_portal=7');
    expect(screen.getByRole('link', { name: 'Registration portals' })).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Edit Drivers 2027' }).getAttribute('href')).toBe(
      '/processes/5/registration-portals/7/edit',
    );
  });

  it('hides the tab, add, edit and delete without the entitlement and change rights', async () => {
    mockFetch(answer);
    renderAt(
      '/processes/5/registration-portals',
      ['processes.view_process', 'registration_portals.view_registrationportal'],
      [],
    );
    expect(await screen.findByText('Drivers 2027')).toBeTruthy();
    expect(screen.queryByRole('link', { name: 'Registration portals' })).toBeNull();
    expect(screen.queryByRole('link', { name: 'Add registration portal' })).toBeNull();
    expect(screen.queryByRole('link', { name: 'Edit Drivers 2027' })).toBeNull();
  });

  it('draws the QR code of the public link', async () => {
    mockFetch(answer);
    renderAt('/processes/5/registration-portals');
    fireEvent.click(await screen.findByRole('button', { name: 'QR code of Drivers 2027' }));
    const img = await screen.findByTestId('qr-code');
    expect(img.getAttribute('src')).toMatch(/^data:image\/png;base64,/);
  });
});

describe('add and edit a registration portal', () => {
  it('checks the fields in the browser before sending', async () => {
    const calls = mockFetch(answer);
    renderAt('/processes/5/registration-portals/add');
    fireEvent.change(await screen.findByLabelText(/^Path/), { target: { value: 'Bad path!' } });
    fireEvent.click(screen.getByRole('button', { name: 'Add registration portal' }));
    expect((await screen.findAllByText('Contains invalid characters')).length).toBeGreaterThan(0);
    expect(screen.getAllByText('Required').length).toBeGreaterThan(0);
    expect(calls.some((c) => c.method === 'POST')).toBe(false);
  });

  it("adds a portal and opens its page with the link; the server's 400 lands on its field", async () => {
    let taken = true;
    const calls = mockFetch((call) => {
      if (call.method === 'POST' && taken) {
        taken = false;
        return { status: 400, body: { path: [TAKEN] } };
      }
      if (call.method === 'POST') return { status: 201, body: PORTAL };
      return answer(call);
    });
    const router = renderAt('/processes/5/registration-portals/add');
    fireEvent.click(await screen.findByLabelText(/^Segment/, { selector: 'input' }));
    fireEvent.click(await screen.findByRole('option', { name: 'North depot', hidden: true }));
    fireEvent.change(screen.getByLabelText(/^Path/), { target: { value: 'Drivers-2027' } });
    fireEvent.change(screen.getByLabelText(/^Title/), { target: { value: 'Drivers 2027' } });
    fireEvent.change(screen.getByLabelText(/^Who pays/), { target: { value: 'subject' } });
    fireEvent.change(screen.getByLabelText(/^Registration limit/), { target: { value: '50' } });
    fireEvent.click(screen.getByRole('button', { name: 'Add registration portal' }));
    expect((await screen.findAllByText(TAKEN)).length).toBeGreaterThan(0);
    fireEvent.click(screen.getByRole('button', { name: 'Add registration portal' }));
    await waitFor(() =>
      expect(router.state.location.pathname).toBe('/processes/5/registration-portals/7/edit'),
    );
    const posts = calls.filter((c) => c.method === 'POST');
    expect(posts[1]?.body).toEqual({
      segment_id: 3,
      path: 'drivers-2027',
      title: 'Drivers 2027',
      introduction: '',
      payer: 'subject',
      ask_email: 'required',
      ask_dob: 'required',
      ask_phone: 'optional',
      open: true,
      registration_limit: 50,
      closes_on: null,
    });
  });

  it('changes a portal with a PATCH and shows its link to copy', async () => {
    const calls = mockFetch((call) =>
      call.method === 'PATCH' ? { status: 200, body: { ...PORTAL, open: false } } : answer(call),
    );
    const router = renderAt('/processes/5/registration-portals/7/edit');
    expect((await screen.findByLabelText(/^Title/)).getAttribute('value')).toBe('Drivers 2027');
    expect(screen.getByTestId('public-link').textContent).toBe(
      `${window.location.origin}/self-initiate/3/drivers-2027`,
    );
    expect(screen.getByRole('button', { name: 'Copy link of Drivers 2027' })).toBeTruthy();
    fireEvent.click(screen.getByLabelText(/^Open/));
    fireEvent.click(screen.getByRole('button', { name: 'Save portal' }));
    await waitFor(() =>
      expect(router.state.location.pathname).toBe('/processes/5/registration-portals'),
    );
    const patch = calls.find((c) => c.method === 'PATCH');
    expect(patch?.url).toContain('/api/processes/5/registration-portals/7/');
    expect(patch?.body).toMatchObject({ open: false, registration_limit: 2, segment_id: 3 });
  });
});
