import type { Permission } from '@kestrel/domain';
import { fireEvent, screen, within } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { resetSession, setSession } from '../../../lib/session/session-store';
import { type Call, mockFetch } from '../../../test/fetch-mock';
import { renderWithProviders } from '../../../test/render';
import { boot, product, productIn } from '../../../test/sessions';
import SubjectSubscriptions from './subject-subscriptions';

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
  open_cases: 0,
};
const SUBSCRIPTION = {
  id: 4,
  subject: { id: 3, first_name: 'Sam', last_name: 'Green', email: 'sam@example.test' },
  cycle: {
    id: 9,
    name: 'Update service',
    requirements: ['dbs-update'],
    repeat_text: 'Every 6 months',
    billing_text: 'Every year',
  },
  process: { id: 5, name: 'Drivers' },
  state: 'paused',
  state_display: 'Paused',
  next_due_at: '2027-05-28T10:00:00Z',
  next_billing_at: '2027-11-28T10:00:00Z',
  last_case: null,
  cases_opened: 0,
  started_at: '2026-11-28T10:00:00Z',
  paused_at: '2026-11-29T10:00:00Z',
  ended_at: null,
  created_at: '2026-11-28T10:00:00Z',
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
    if (path === '/api/subjects/3/subscriptions/') return { status: 200, body: page(rows) };
    if (path === '/api/subscriptions/4/resume/')
      return { status: 200, body: { ...SUBSCRIPTION, state: 'active', state_display: 'Active' } };
    return { status: 404, body: {} };
  };

const ALL: Permission[] = [
  'subjects.view_subject',
  'subscriptions.view_subscription',
  'subscriptions.add_subscription',
  'subscriptions.change_subscription',
];

function renderTab(permissions: Permission[] = ALL) {
  const p = product({ session_permissions: permissions });
  setSession({ ...productIn(p, ['cycles']), bootstrap: boot(p, ['cycles']) });
  const router = createMemoryRouter(
    [{ path: '/subjects/:id/subscriptions', Component: SubjectSubscriptions }],
    { initialEntries: ['/subjects/3/subscriptions'] },
  );
  renderWithProviders(<RouterProvider router={router} />);
}

describe("the subject's subscriptions tab", () => {
  it('lists the subscriptions and resumes a paused one after a confirmation', async () => {
    const calls = mockFetch(answer([SUBSCRIPTION]));
    renderTab();
    expect(await screen.findByText('Update service')).toBeTruthy();
    expect(screen.getByText('Paused')).toBeTruthy();
    expect(screen.getByText('28th May 2027')).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Subscribe to a cycle' }).getAttribute('href')).toBe(
      '/subjects/3/subscriptions/add',
    );
    expect(screen.queryByRole('button', { name: /^Pause/ })).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'Resume Sam Green: Update service' }));
    const dialog = await screen.findByRole('dialog');
    fireEvent.click(within(dialog).getByRole('button', { name: 'Resume' }));
    await screen.findByText('Subscription resumed');
    expect(calls.some((c) => c.method === 'POST' && c.url.endsWith('/4/resume/'))).toBe(true);
  });

  it('says plainly when there are none, and offers no subscribe without add_subscription', async () => {
    mockFetch(answer([]));
    renderTab(['subjects.view_subject', 'subscriptions.view_subscription']);
    expect(await screen.findByText('This subject has no subscriptions.')).toBeTruthy();
    expect(screen.queryByRole('link', { name: 'Subscribe to a cycle' })).toBeNull();
  });
});
