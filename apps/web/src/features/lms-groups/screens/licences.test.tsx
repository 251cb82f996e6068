import type { LicenceStatus, Permission } from '@kestrel/domain';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { resetSession, setSession } from '../../../lib/session/session-store';
import { type Call, mockFetch } from '../../../test/fetch-mock';
import { renderWithProviders } from '../../../test/render';
import { boot, product, productIn } from '../../../test/sessions';
import Licences from './licences';

const ISSUED = {
  id: 1,
  action: 'issue',
  from_status: null,
  to_status: 'active',
  reason: '',
  actor: 4,
  actor_name: 'Lena Officer',
  created_at: '2025-10-01T09:00:00Z',
};
const licence = (status: LicenceStatus, events: object[] = [ISSUED]) => ({
  id: 21,
  number: 'HCD/2025/00001',
  holder: 8,
  holder_name: 'Daniel Okafor',
  holder_dob: '1980-02-03',
  group: 3,
  group_name: 'Taxi and private hire',
  sub_group: 7,
  sub_group_name: 'Hackney carriage driver',
  definition: 11,
  definition_name: 'Hackney carriage driver licence (3 years)',
  status,
  status_label: status,
  actions: [],
  issue_date: '2025-10-01',
  expiry_date: '2028-09-30',
  conditions: 'Wheelchair accessible vehicle only.',
  events,
  update_service: null as null | object,
  created_at: '2025-10-01T09:00:00Z',
  updated_at: '2025-10-01T09:00:00Z',
  status_changed_at: null,
});
const page = <T,>(rows: T[]) => ({ count: rows.length, next: null, previous: null, results: rows });
const REFUSED = 'A suspended licence cannot be suspended.';

afterEach(() => {
  resetSession();
  vi.unstubAllGlobals();
});

function answer(status: LicenceStatus) {
  return (call: Call) => {
    const path = new URL(call.url, 'http://x').pathname;
    if (path === '/api/lms/licences/') return { status: 200, body: page([licence(status)]) };
    if (path === '/api/lms/licences/21/') return { status: 200, body: licence(status) };
    if (path === '/api/lms/licence-groups/' || path === '/api/lms/licence-sub-groups/')
      return { status: 200, body: page([]) };
    return { status: 404, body: {} };
  };
}

const ALL: Permission[] = [
  'lms_licences.view_licence',
  'lms_licences.change_licence',
  'lms_definitions.view_definition',
];

/** Where a started renewal leads: the portal's applications (another feature's screen). */
function PortalStandIn() {
  return <p>The portal</p>;
}

function renderAt(url: string, permissions: Permission[] = ALL) {
  const p = product({ session_permissions: permissions });
  setSession({ ...productIn(p), bootstrap: boot(p) });
  const router = createMemoryRouter(
    [
      { path: '/licences', Component: Licences },
      { path: '/definitions/:id/application_portals/:appId', Component: PortalStandIn },
    ],
    { initialEntries: [url] },
  );
  renderWithProviders(<RouterProvider router={router} />);
  return router;
}

describe('licences', () => {
  it('lists the licences with their status, and sends the filters of the URL', async () => {
    const calls = mockFetch(answer('active'));
    renderAt('/licences?status=active&group=3&q=oka');
    expect(await screen.findByRole('button', { name: 'Open licence HCD/2025/00001' })).toBeTruthy();
    expect(screen.getByText('Daniel Okafor')).toBeTruthy();
    expect(screen.getByTestId('licence-status').textContent).toBe('Active');
    expect(screen.getByText('30th Sep 2028')).toBeTruthy();
    const asked = calls.find((c) => c.url.startsWith('/api/lms/licences/?'));
    const query = new URL(asked?.url ?? '', 'http://x').searchParams;
    expect(query.get('status')).toBe('active');
    expect(query.get('group')).toBe('3');
    expect(query.get('q')).toBe('oka');
    expect(query.get('page')).toBe('1');
  });

  it('puts a chosen status in the URL', async () => {
    mockFetch(answer('active'));
    const router = renderAt('/licences');
    await screen.findByText('Daniel Okafor');
    fireEvent.click(screen.getByLabelText(/^Status/, { selector: 'input' }));
    fireEvent.click(await screen.findByRole('option', { name: 'Suspended', hidden: true }));
    await waitFor(() => expect(router.state.location.search).toBe('?status=suspended'));
  });

  it('opens a licence beside the list with its conditions and trail', async () => {
    mockFetch(answer('active'));
    const router = renderAt('/licences');
    fireEvent.click(await screen.findByRole('button', { name: 'Open licence HCD/2025/00001' }));
    const drawer = await screen.findByRole('dialog', { name: 'Licence HCD/2025/00001' });
    expect(router.state.location.search).toBe('?licence=21');
    expect(await within(drawer).findByText('Wheelchair accessible vehicle only.')).toBeTruthy();
    const trail = within(drawer).getByTestId('licence-trail');
    expect(within(trail).getByText('Issued')).toBeTruthy();
    expect(within(trail).getByText('Lena Officer · 1st Oct 2025 09:00')).toBeTruthy();
  });

  it("shows the holder's latest DBS update service check; new information is called out", async () => {
    const checked = {
      ...licence('active'),
      update_service: {
        due_on: '2026-04-01',
        case: 55,
        state: 'ca-complete',
        state_label: 'Complete',
        certificate_status: 'NEW_INFO',
        certificate_status_meaning:
          'This certificate is no longer current. Please apply for a new check to see the new information.',
        checked_on: '2026-04-01',
        new_information: true,
      },
    };
    mockFetch((call) =>
      new URL(call.url, 'http://x').pathname === '/api/lms/licences/21/'
        ? { status: 200, body: checked }
        : answer('active')(call),
    );
    renderAt('/licences?licence=21');
    const drawer = within(await screen.findByRole('dialog', { name: 'Licence HCD/2025/00001' }));
    const section = within(await drawer.findByTestId('licence-update-service'));
    expect(section.getByText('New information')).toBeTruthy();
    expect(section.getByText(/no longer current/)).toBeTruthy();
    expect(
      section.getByRole('link', { name: 'Open the case of the check' }).getAttribute('href'),
    ).toBe('/cases/55');
  });

  it('shows no update service section for a licence without one', async () => {
    mockFetch(answer('active'));
    renderAt('/licences?licence=21');
    await screen.findByRole('dialog', { name: 'Licence HCD/2025/00001' });
    expect(screen.queryByTestId('licence-update-service')).toBeNull();
  });

  it('offers the actions the status allows: an active licence is suspended, revoked, surrendered', async () => {
    mockFetch(answer('active'));
    renderAt('/licences?licence=21');
    const drawer = await screen.findByRole('dialog', { name: 'Licence HCD/2025/00001' });
    const actions = await within(drawer).findByRole('group', { name: 'Licence actions' });
    expect(
      within(actions)
        .getAllByRole('button')
        .map((b) => b.textContent),
    ).toEqual(['Start a renewal', 'Suspend', 'Revoke', 'Surrender']);
  });

  it('offers reinstate (not suspend) on a suspended licence', async () => {
    mockFetch(answer('suspended'));
    renderAt('/licences?licence=21');
    const actions = await screen.findByRole('group', { name: 'Licence actions' });
    expect(
      within(actions)
        .getAllByRole('button')
        .map((b) => b.textContent),
    ).toEqual(['Revoke', 'Reinstate', 'Surrender']);
    vi.unstubAllGlobals();
  });

  it('offers no action on a revoked licence', async () => {
    mockFetch(answer('revoked'));
    renderAt('/licences?licence=21');
    await screen.findByText('Wheelchair accessible vehicle only.');
    expect(screen.queryByRole('group', { name: 'Licence actions' })).toBeNull();
  });

  it('offers no action to who may only view licences', async () => {
    mockFetch(answer('active'));
    renderAt('/licences?licence=21', ['lms_licences.view_licence']);
    await screen.findByText('Wheelchair accessible vehicle only.');
    expect(screen.queryByRole('group', { name: 'Licence actions' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Edit conditions' })).toBeNull();
  });

  it('asks for a reason before suspending, then sends it and shows the new trail', async () => {
    const suspended = licence('suspended', [
      ISSUED,
      {
        ...ISSUED,
        id: 2,
        action: 'suspend',
        from_status: 'active',
        to_status: 'suspended',
        reason: 'Police report of an assault.',
        created_at: '2026-11-20T14:30:00Z',
      },
    ]);
    let current = licence('active');
    const calls = mockFetch((call) => {
      const path = new URL(call.url, 'http://x').pathname;
      if (path === '/api/lms/licences/21/suspend/') {
        current = suspended;
        return { status: 200, body: suspended };
      }
      if (path === '/api/lms/licences/21/') return { status: 200, body: current };
      return answer('active')(call);
    });
    renderAt('/licences?licence=21');
    const actions = await screen.findByRole('group', { name: 'Licence actions' });
    fireEvent.click(within(actions).getByRole('button', { name: 'Suspend' }));
    const dialog = await screen.findByRole('dialog', { name: 'Suspend the licence?' });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Suspend' }));
    expect((await within(dialog).findAllByText('Required')).length).toBeGreaterThan(0);
    expect(calls.some((c) => c.method === 'POST')).toBe(false);
    fireEvent.change(within(dialog).getByLabelText(/^Reason/), {
      target: { value: 'Police report of an assault.' },
    });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Suspend' }));
    await waitFor(() =>
      expect(screen.queryByRole('dialog', { name: 'Suspend the licence?' })).toBeNull(),
    );
    expect(calls.find((c) => c.method === 'POST')?.body).toEqual({
      reason: 'Police report of an assault.',
    });
    const trail = screen.getByTestId('licence-trail');
    expect(await within(trail).findByText('Police report of an assault.')).toBeTruthy();
    expect(within(trail).getByText('Suspended (Active → Suspended)')).toBeTruthy();
    const drawer = screen.getByRole('dialog', { name: 'Licence HCD/2025/00001' });
    expect(within(drawer).getByTestId('licence-status').textContent).toBe('Suspended');
  });

  it("keeps the server's refusal in the dialog", async () => {
    mockFetch((call) =>
      call.method === 'POST'
        ? { status: 400, body: { non_field_errors: [REFUSED] } }
        : answer('active')(call),
    );
    renderAt('/licences?licence=21');
    const actions = await screen.findByRole('group', { name: 'Licence actions' });
    fireEvent.click(within(actions).getByRole('button', { name: 'Suspend' }));
    const dialog = await screen.findByRole('dialog', { name: 'Suspend the licence?' });
    fireEvent.change(within(dialog).getByLabelText(/^Reason/), {
      target: { value: 'Complaint' },
    });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Suspend' }));
    expect(await within(dialog).findByText(REFUSED)).toBeTruthy();
  });

  it('issues a licence of a definition to a subject, then opens it', async () => {
    const calls = mockFetch((call) => {
      const url = new URL(call.url, 'http://x');
      if (url.pathname === '/api/lms/definitions/')
        return {
          status: 200,
          body: page([
            {
              id: 11,
              name: 'Hackney carriage driver licence',
              sub_group_name: 'Hackney carriage driver',
            },
          ]),
        };
      if (url.pathname === '/api/subjects/')
        return {
          status: 200,
          body: page([{ id: 8, first_name: 'Daniel', last_name: 'Okafor', email: 'd@x.test' }]),
        };
      if (call.method === 'POST') return { status: 201, body: { ...licence('active'), id: 22 } };
      return answer('active')(call);
    });
    const router = renderAt('/licences', [...ALL, 'lms_licences.add_licence']);
    fireEvent.click(await screen.findByRole('button', { name: 'Issue licence' }));
    const dialog = await screen.findByRole('dialog', { name: 'Issue a licence' });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Issue licence' }));
    expect((await within(dialog).findAllByText('Required')).length).toBeGreaterThan(0);
    fireEvent.click(within(dialog).getByLabelText(/^Licence definition/, { selector: 'input' }));
    fireEvent.click(
      await screen.findByRole('option', {
        name: 'Hackney carriage driver licence (Hackney carriage driver)',
        hidden: true,
      }),
    );
    const holder = within(dialog).getByLabelText(/^Holder/, { selector: 'input' });
    fireEvent.change(holder, { target: { value: 'Dan' } });
    fireEvent.click(
      await screen.findByRole('option', { name: 'Daniel Okafor (d@x.test)', hidden: true }),
    );
    fireEvent.change(within(dialog).getByLabelText(/^Licence number/), {
      target: { value: 'hcd/old/7' },
    });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Issue licence' }));
    await waitFor(() => expect(router.state.location.search).toBe('?licence=22'));
    expect(calls.find((c) => c.method === 'POST')?.body).toEqual({
      definition: 11,
      holder: 8,
      number: 'HCD/OLD/7',
      conditions: '',
    });
  });

  it("starts a renewal with the holder's tax check code, the server's refusal kept, then opens it", async () => {
    let first = true;
    const calls = mockFetch((call) => {
      const path = new URL(call.url, 'http://x').pathname;
      if (path === '/api/lms/licences/21/renew/') {
        if (first) {
          first = false;
          return {
            status: 400,
            body: {
              tax_check_code: [
                'This tax check code has expired (codes are valid for 120 days). Get a new code from HMRC.',
              ],
            },
          };
        }
        return {
          status: 201,
          body: { id: 77, reference: 'APP-000077', definition: 11, portal: 5 },
        };
      }
      return answer('active')(call);
    });
    const router = renderAt('/licences?licence=21');
    const actions = await screen.findByRole('group', { name: 'Licence actions' });
    fireEvent.click(within(actions).getByRole('button', { name: 'Start a renewal' }));
    const dialog = await screen.findByRole('dialog', { name: 'Start a renewal?' });
    const code = within(dialog).getByLabelText(/^HMRC tax check code/);
    // malformed: said before anything is sent
    fireEvent.change(code, { target: { value: 'AB12' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Start the renewal' }));
    expect(
      (
        await within(dialog).findAllByText(
          'Enter the 9-character tax check code (letters and digits).',
        )
      ).length,
    ).toBeGreaterThan(0);
    expect(calls.some((c) => c.method === 'POST')).toBe(false);
    // an expired code: the server's answer on the field
    fireEvent.change(code, { target: { value: 'abc 123 xyz' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Start the renewal' }));
    expect(
      (await within(dialog).findAllByText(/This tax check code has expired/)).length,
    ).toBeGreaterThan(0);
    fireEvent.click(within(dialog).getByRole('button', { name: 'Start the renewal' }));
    await waitFor(() =>
      expect(router.state.location.pathname).toBe('/definitions/11/application_portals/5'),
    );
    expect(router.state.location.search).toBe('?application=77');
    expect(calls.filter((c) => c.method === 'POST').map((c) => c.body)).toEqual([
      { tax_check_code: 'ABC123XYZ' },
      { tax_check_code: 'ABC123XYZ' },
    ]);
  });

  it('offers no renewal on a suspended licence', async () => {
    mockFetch(answer('suspended'));
    renderAt('/licences?licence=21');
    await screen.findByRole('group', { name: 'Licence actions' });
    expect(screen.queryByRole('button', { name: 'Start a renewal' })).toBeNull();
  });

  it('searches the register of refusals, suspensions and revocations by name and date of birth', async () => {
    const entry = {
      kind: 'suspension',
      kind_label: 'Suspension',
      subject: 8,
      name: 'Priya Shah',
      dob: '1985-06-01',
      licence_id: 22,
      licence_number: 'PHD/2026/00002',
      application_id: null,
      definition_name: 'Private hire driver licence',
      reason: 'Complaint under investigation.',
      date: '2026-10-30T10:00:00Z',
    };
    const calls = mockFetch((call) => {
      const url = new URL(call.url, 'http://x');
      if (url.pathname === '/api/lms/register/')
        return {
          status: 200,
          body: page(url.searchParams.get('q') === 'shah' ? [entry] : []),
        };
      return answer('active')(call);
    });
    const router = renderAt('/licences');
    const register = within(await screen.findByTestId('licence-register'));
    // nothing asked until a search
    expect(calls.some((c) => c.url.startsWith('/api/lms/register/'))).toBe(false);
    fireEvent.change(register.getByLabelText('Name or licence number'), {
      target: { value: ' shah ' },
    });
    fireEvent.change(register.getByLabelText('Date of birth'), { target: { value: '1985-06-01' } });
    fireEvent.click(register.getByRole('button', { name: 'Search the register' }));
    const row = within(await register.findByTestId('register-entry'));
    expect(row.getByText('Suspension')).toBeTruthy();
    expect(row.getByText('PHD/2026/00002')).toBeTruthy();
    expect(row.getByText('Complaint under investigation.')).toBeTruthy();
    const asked = new URL(
      calls.find((c) => c.url.startsWith('/api/lms/register/'))?.url ?? '',
      'http://x',
    ).searchParams;
    expect(asked.get('q')).toBe('shah');
    expect(asked.get('dob')).toBe('1985-06-01');
    expect(router.state.location.search).toBe('?register_q=shah&register_dob=1985-06-01');
    fireEvent.change(register.getByLabelText('Name or licence number'), {
      target: { value: 'nobody' },
    });
    fireEvent.click(register.getByRole('button', { name: 'Search the register' }));
    expect(await register.findByText('Nothing on the register for this search.')).toBeTruthy();
  });
});
