import type { Entitlement, Permission } from '@kestrel/domain';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { resetSession, setSession } from '../../../lib/session/session-store';
import { type Call, mockFetch } from '../../../test/fetch-mock';
import { renderWithProviders } from '../../../test/render';
import { boot, product, productIn } from '../../../test/sessions';
import SubjectList from '../../subjects/routes/subject-list';
import { bulkSummary } from './bulk-subscribe';

const person = (id: number, first: string) => ({
  id,
  first_name: first,
  middlename: '',
  last_name: 'Green',
  email: `${first.toLowerCase()}@example.test`,
  dob: '1990-04-12',
  phone_number: '',
  has_account: true,
  is_archived: false,
  archived_at: null,
  created_at: '2026-11-01T09:00:00.000Z',
  open_cases: 0,
});
const CYCLE = {
  id: 9,
  process: 5,
  process_name: 'Drivers',
  name: 'Update service',
  repeat_text: 'Every 6 months',
  billing_text: 'Every year',
};
const page = <T,>(rows: T[]) => ({ count: rows.length, next: null, previous: null, results: rows });

afterEach(() => {
  resetSession();
  vi.unstubAllGlobals();
});

function answer(call: Call) {
  const path = new URL(call.url, 'http://x').pathname;
  if (path === '/api/subjects/') {
    return { status: 200, body: page([person(1, 'Sam'), person(2, 'Ali'), person(3, 'Jo')]) };
  }
  if (path === '/api/cycles/') return { status: 200, body: page([CYCLE]) };
  if (path === '/api/subscriptions/bulk/') {
    return { status: 201, body: { created: [], skipped: [2] } };
  }
  return { status: 404, body: {} };
}

function renderList(permissions: Permission[], entitlements: Entitlement[]) {
  const p = product({ session_permissions: ['subjects.view_subject', ...permissions] });
  setSession({ ...productIn(p, entitlements), bootstrap: boot(p, entitlements) });
  const router = createMemoryRouter([{ path: '/subjects', Component: SubjectList }], {
    initialEntries: ['/subjects'],
  });
  renderWithProviders(<RouterProvider router={router} />);
}

describe('subscribing subjects in bulk from the subjects list', () => {
  it('chooses subjects, picks a cycle and sends them in one request', async () => {
    const calls = mockFetch(answer);
    renderList(['subscriptions.add_subscription'], ['cycles']);
    fireEvent.click(await screen.findByRole('checkbox', { name: 'Choose Sam Green' }));
    fireEvent.click(screen.getByRole('checkbox', { name: 'Choose Ali Green' }));
    expect(screen.getByText('2 subjects chosen')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Subscribe to a cycle' }));
    const dialog = await screen.findByRole('dialog', { name: 'Subscribe 2 subjects to a cycle' });
    fireEvent.click(within(dialog).getByLabelText(/^Cycle/, { selector: 'input' }));
    fireEvent.click(await screen.findByRole('option', { name: /Update service/, hidden: true }));
    fireEvent.click(within(dialog).getByRole('button', { name: 'Subscribe' }));
    await waitFor(() =>
      expect(calls.find((c) => c.method === 'POST')?.body).toEqual({ cycle: 9, subjects: [1, 2] }),
    );
    // done: the choice is cleared
    await waitFor(() => expect(screen.queryByText('2 subjects chosen')).toBeNull());
  });

  it('the page checkbox chooses every row of the page', async () => {
    mockFetch(answer);
    renderList(['subscriptions.add_subscription'], ['cycles']);
    await screen.findByText('Sam Green');
    fireEvent.click(screen.getByRole('checkbox', { name: 'Choose every subject on this page' }));
    expect(screen.getByText('3 subjects chosen')).toBeTruthy();
  });

  it('offers no choice without the cycles entitlement or the permission', async () => {
    mockFetch(answer);
    renderList([], ['cycles']);
    await screen.findByText('Sam Green');
    expect(screen.queryByRole('checkbox')).toBeNull();
  });

  it('says what was done, with those already subscribed', () => {
    expect(bulkSummary({ created: [], skipped: [] })).toBe('0 subjects subscribed.');
    expect(bulkSummary({ created: [], skipped: [4, 5] })).toBe(
      '0 subjects subscribed; 2 already subscribed, left as they were.',
    );
  });
});
