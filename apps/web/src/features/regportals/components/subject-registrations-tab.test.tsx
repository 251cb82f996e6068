import type { Entitlement } from '@kestrel/domain';
import { fireEvent, screen, within } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { resetSession, setSession } from '../../../lib/session/session-store';
import { type Call, mockFetch } from '../../../test/fetch-mock';
import { renderWithProviders } from '../../../test/render';
import { boot, product, productIn } from '../../../test/sessions';
import SubjectDetail from '../../subjects/routes/subject-detail';

const SUBJECT = {
  id: 3,
  first_name: 'Sam',
  middlename: '',
  last_name: 'Green',
  email: 'sam@example.test',
  dob: '1990-04-12',
  phone_number: '',
  has_account: true,
  is_archived: false,
  archived_at: null,
  created_at: '2026-11-01T09:00:00.000Z',
  open_cases: 1,
};
const REGISTRATION = {
  id: 12,
  reg_portal_id: 2,
  portal_title: 'Volunteer drivers',
  process_id: 5,
  subject_id: 3,
  first_name: 'Sam',
  last_name: 'Green',
  email: 'sam@example.test',
  dob: '1990-04-12',
  phone: '',
  state: 'case_created',
  started_at: '2026-11-20T09:00:00.000Z',
  expires_at: '2026-11-22T09:00:00.000Z',
  email_confirmed_at: '2026-11-20T09:05:00.000Z',
  case_id: 77,
  payment_intent_id: null,
};
const page = <T,>(rows: T[]) => ({ count: rows.length, next: null, previous: null, results: rows });

afterEach(() => {
  resetSession();
  vi.unstubAllGlobals();
});

const answer =
  (rows: unknown[]) =>
  (call: Call): { status: number; body?: unknown } => {
    const path = new URL(call.url, 'http://x').pathname;
    if (path === '/api/subjects/3/') return { status: 200, body: SUBJECT };
    if (path === '/api/portal-registrations/') return { status: 200, body: page(rows) };
    if (path.endsWith('/')) return { status: 200, body: page([]) };
    return { status: 404, body: {} };
  };

function renderDetail(entitlements: Entitlement[]) {
  const p = product({ session_permissions: ['subjects.view_subject'] });
  setSession({ ...productIn(p, entitlements), bootstrap: boot(p, entitlements) });
  const router = createMemoryRouter([{ path: '/subjects/:id', Component: SubjectDetail }], {
    initialEntries: ['/subjects/3'],
  });
  renderWithProviders(<RouterProvider router={router} />);
}

describe("the subject page's Registrations tab", () => {
  it("lists the subject's registrations (?subject=), each linked to it and its case", async () => {
    const calls = mockFetch(answer([REGISTRATION]));
    renderDetail(['regportals']);
    fireEvent.click(await screen.findByRole('tab', { name: 'Registrations' }));
    const link = await screen.findByRole('link', { name: 'Volunteer drivers' });
    expect(link.getAttribute('href')).toBe('/portal-registrations/12');
    const row = link.closest('tr');
    if (!row) throw new Error('no row');
    expect(within(row).getByText('Case created')).toBeTruthy();
    expect(within(row).getByRole('link', { name: '#77' }).getAttribute('href')).toBe('/cases/77');
    const asked = calls.find((c) => c.url.startsWith('/api/portal-registrations/'));
    expect(new URL(asked?.url ?? '', 'http://x').searchParams.get('subject')).toBe('3');
  });

  it('says so when there are none', async () => {
    mockFetch(answer([]));
    renderDetail(['regportals']);
    fireEvent.click(await screen.findByRole('tab', { name: 'Registrations' }));
    expect(await screen.findByText('This subject has no portal registrations.')).toBeTruthy();
  });

  it('is not offered to a customer without registration portals', async () => {
    const calls = mockFetch(answer([REGISTRATION]));
    renderDetail([]);
    await screen.findByRole('tab', { name: 'Cases' });
    expect(screen.queryByRole('tab', { name: 'Registrations' })).toBeNull();
    expect(calls.some((c) => c.url.startsWith('/api/portal-registrations/'))).toBe(false);
  });
});
