import type { Permission, PortalRegistrationDetailOut } from '@kestrel/domain';
import { fireEvent, screen, waitFor } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { resetSession, setSession } from '../../../lib/session/session-store';
import { type Call, mockFetch } from '../../../test/fetch-mock';
import { renderWithProviders } from '../../../test/render';
import { boot, product, productIn } from '../../../test/sessions';
import PortalRegistration from './portal-registration';
import SubjectRegistrations from './subject-registrations';

const REG: PortalRegistrationDetailOut = {
  id: 12,
  reg_portal_id: 7,
  portal_title: 'Drivers 2027',
  process_id: 5,
  subject_id: null,
  first_name: 'Rita',
  last_name: 'Register',
  email: 'rita@example.test',
  dob: '1990-04-30',
  phone: '+447911123456',
  state: 'started',
  started_at: '2026-11-20T09:30:00Z',
  expires_at: '2026-11-22T09:30:00Z',
  email_confirmed_at: null,
  case_id: null,
  payment_intent_id: null,
  events: [{ at: '2026-11-20T09:30:00Z', state: 'started', note: 'Registered on a phone' }],
};
const DONE: PortalRegistrationDetailOut = {
  ...REG,
  id: 13,
  first_name: 'Carl',
  subject_id: 40,
  state: 'case_created',
  email_confirmed_at: '2026-11-20T09:40:00Z',
  case_id: 88,
  payment_intent_id: 31,
  events: [
    { at: '2026-11-20T09:30:00Z', state: 'started', note: '' },
    { at: '2026-11-20T09:40:00Z', state: 'email_confirmed', note: '' },
    { at: '2026-11-20T09:45:00Z', state: 'case_created', note: 'Case #88' },
  ],
};
const page = <T,>(rows: T[]) => ({ count: rows.length, next: null, previous: null, results: rows });
const { events: _e1, ...ROW } = REG;
const { events: _e2, ...DONE_ROW } = DONE;

afterEach(() => {
  resetSession();
  vi.unstubAllGlobals();
});

function answer(call: Call) {
  const url = new URL(call.url, 'http://x');
  const path = url.pathname;
  if (path === '/api/portal-registrations/') return { status: 200, body: page([ROW, DONE_ROW]) };
  if (path === '/api/portal-registrations/12/') return { status: 200, body: REG };
  if (path === '/api/portal-registrations/13/') return { status: 200, body: DONE };
  if (path === '/api/portal-registrations/12/resend-confirmation/')
    return { status: 200, body: { detail: 'The confirmation email has been sent again.' } };
  if (path === '/api/processes/') return { status: 200, body: page([{ id: 5, name: 'Drivers' }]) };
  if (path === '/api/processes/5/registration-portals/')
    return { status: 200, body: page([{ id: 7, title: 'Drivers 2027' }]) };
  return { status: 404, body: {} };
}

const PERMS: Permission[] = ['subjects.view_subject', 'subjects.add_subject'];

function renderAt(url: string, permissions: Permission[] = PERMS) {
  const p = product({ session_permissions: permissions });
  setSession({ ...productIn(p), bootstrap: boot(p, ['regportals']) });
  const router = createMemoryRouter(
    [
      { path: '/subjects/registrations', Component: SubjectRegistrations },
      { path: '/portal-registrations/:id', Component: PortalRegistration },
    ],
    { initialEntries: [url] },
  );
  renderWithProviders(<RouterProvider router={router} />);
  return router;
}

const listCalls = (calls: Call[]) =>
  calls
    .filter((c) => c.url.startsWith('/api/portal-registrations/?'))
    .map((c) => new URL(c.url, 'http://x').searchParams);

describe('every registration', () => {
  it('lists them with their state and case; the filters come from the URL and go to the API', async () => {
    const calls = mockFetch(answer);
    renderAt('/subjects/registrations?state=started&process=5&reg_portal=7&q=rit');
    expect(await screen.findByRole('link', { name: 'Rita Register' })).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Rita Register' }).getAttribute('href')).toBe(
      '/portal-registrations/12',
    );
    expect(screen.getByRole('link', { name: '#88' }).getAttribute('href')).toBe('/cases/88');
    expect(screen.getAllByText('Case created').length).toBeGreaterThan(0);
    const first = listCalls(calls)[0];
    expect(first?.get('state')).toBe('started');
    expect(first?.get('reg_portal')).toBe('7');
    expect(first?.get('process')).toBe('5');
    expect(first?.get('q')).toBe('rit');
    expect((screen.getByLabelText('Search') as HTMLInputElement).value).toBe('rit');
  });

  it('puts a typed search in the URL and clears every filter', async () => {
    const calls = mockFetch(answer);
    const router = renderAt('/subjects/registrations?state=expired');
    await screen.findByRole('link', { name: 'Rita Register' });
    fireEvent.change(screen.getByLabelText('Search'), { target: { value: 'carl' } });
    await waitFor(() => expect(router.state.location.search).toBe('?q=carl&state=expired'));
    await waitFor(() => expect(listCalls(calls).at(-1)?.get('q')).toBe('carl'));
    fireEvent.click(screen.getByRole('button', { name: 'Clear filters' }));
    await waitFor(() => expect(router.state.location.search).toBe(''));
  });
});

describe('one registration', () => {
  it('shows the person, the events and resends the confirmation while started', async () => {
    const calls = mockFetch(answer);
    renderAt('/portal-registrations/12');
    expect(await screen.findByRole('heading', { level: 1, name: 'Rita Register' })).toBeTruthy();
    expect(screen.getByText('rita@example.test')).toBeTruthy();
    expect(screen.getByText(/Registered on a phone/)).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Resend confirmation' }));
    await waitFor(() =>
      expect(
        calls.some((c) => c.method === 'POST' && c.url.endsWith('/resend-confirmation/')),
      ).toBe(true),
    );
    expect(await screen.findByText('The confirmation email has been sent again.')).toBeTruthy();
  });

  it('offers no resend to a reader without subjects.add_subject', async () => {
    mockFetch(answer);
    renderAt('/portal-registrations/12', ['subjects.view_subject']);
    expect(await screen.findByRole('heading', { level: 1, name: 'Rita Register' })).toBeTruthy();
    expect(screen.getByText('Waiting for the email to be confirmed')).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Resend confirmation' })).toBeNull();
  });

  it('links its payment and its case once made, with no resend', async () => {
    mockFetch(answer);
    renderAt('/portal-registrations/13');
    expect(await screen.findByRole('heading', { level: 1, name: 'Carl Register' })).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Case #88' }).getAttribute('href')).toBe('/cases/88');
    expect(screen.getByRole('link', { name: 'See the payment' }).getAttribute('href')).toBe(
      '/payments/portal-31',
    );
    expect(screen.getByRole('link', { name: 'Carl Register' }).getAttribute('href')).toBe(
      '/subjects/40',
    );
    expect(screen.getAllByText('Case created').length).toBeGreaterThan(1);
    expect(screen.queryByRole('button', { name: 'Resend confirmation' })).toBeNull();
  });
});
