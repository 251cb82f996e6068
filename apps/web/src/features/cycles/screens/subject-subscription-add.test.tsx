import { fireEvent, screen, waitFor } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { resetSession, setSession } from '../../../lib/session/session-store';
import { type Call, mockFetch } from '../../../test/fetch-mock';
import { renderWithProviders } from '../../../test/render';
import { boot, product, productIn } from '../../../test/sessions';
import SubjectSubscriptionAdd from './subject-subscription-add';

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
const CYCLE = {
  id: 9,
  process: 5,
  process_name: 'Drivers',
  name: 'Update service',
  repeat_text: 'Every 6 months',
  billing_text: 'Every year',
};
const page = <T,>(rows: T[]) => ({ count: rows.length, next: null, previous: null, results: rows });
const ALREADY = 'This subject already has a subscription to this cycle.';

afterEach(() => {
  resetSession();
  vi.unstubAllGlobals();
});

function answer(post: { status: number; body: unknown }) {
  return (call: Call) => {
    const path = new URL(call.url, 'http://x').pathname;
    if (path === '/api/subjects/3/') return { status: 200, body: SUBJECT };
    if (path === '/api/cycles/') return { status: 200, body: page([CYCLE]) };
    if (path === '/api/subjects/3/subscriptions/' && call.method === 'POST') return post;
    return { status: 404, body: {} };
  };
}

function renderAdd() {
  const p = product({
    session_permissions: ['subjects.view_subject', 'subscriptions.add_subscription'],
  });
  setSession({ ...productIn(p, ['cycles']), bootstrap: boot(p, ['cycles']) });
  const router = createMemoryRouter(
    [
      { path: '/subjects/:id/subscriptions/add', Component: SubjectSubscriptionAdd },
      { path: '/subjects/:id/subscriptions', element: <p>subscriptions tab</p> },
    ],
    { initialEntries: ['/subjects/3/subscriptions/add'] },
  );
  renderWithProviders(<RouterProvider router={router} />);
}

async function pickCycle() {
  const picker = await screen.findByLabelText(/^Cycle/, { selector: 'input' });
  fireEvent.click(picker);
  fireEvent.click(await screen.findByRole('option', { name: /Update service/, hidden: true }));
}

describe('subscribe a subject to a cycle', () => {
  it('asks for a cycle before sending', async () => {
    const calls = mockFetch(answer({ status: 201, body: {} }));
    renderAdd();
    fireEvent.click(await screen.findByRole('button', { name: 'Subscribe' }));
    expect((await screen.findAllByText('Choose a cycle.')).length).toBeGreaterThan(0);
    expect(calls.some((c) => c.method === 'POST')).toBe(false);
  });

  it('picks from the active cycles, sends the cycle and shows the tab once subscribed', async () => {
    const calls = mockFetch(answer({ status: 201, body: { id: 4 } }));
    renderAdd();
    await pickCycle();
    fireEvent.click(screen.getByRole('button', { name: 'Subscribe' }));
    await screen.findByText('subscriptions tab');
    expect(calls.find((c) => c.method === 'POST')?.body).toEqual({ cycle: 9 });
    expect(
      calls.some((c) => c.url.includes('/api/cycles/?') && c.url.includes('is_active=true')),
    ).toBe(true);
  });

  it("puts the server's 400 on the cycle field", async () => {
    mockFetch(answer({ status: 400, body: { cycle: [ALREADY] } }));
    renderAdd();
    await pickCycle();
    fireEvent.click(screen.getByRole('button', { name: 'Subscribe' }));
    await waitFor(() => expect(screen.getAllByText(ALREADY).length).toBeGreaterThan(0));
    expect(screen.queryByText('subscriptions tab')).toBeNull();
  });
});
