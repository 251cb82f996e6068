import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { describe, expect, it } from 'vitest';
import { mockFetch } from '../../../test/fetch-mock';
import { renderWithProviders } from '../../../test/render';
import OpsOutstandingDetail from './ops-outstanding-detail';

// Operations' outstanding check: sent back to the person through operations' own path.

const activityOf = (activity_type: string, state: string) => ({
  id: 41,
  customer: 5,
  customer_name: 'Acme',
  case: {
    id: 9,
    state: 'in-progress',
    subject: { id: 3, first_name: 'Sam', last_name: 'Green', email: 'sam@example.test' },
    case_activities: [{ id: 41, state, activity_type, activity_type_name: activity_type }],
  },
  state,
  state_display: state,
  activity_type,
  activity_type_name: 'Document collection',
  key: activity_type,
  config: {},
  result_data: {},
  processing_data: null,
  notes: '',
  created_at: '2026-11-20T09:00:00.000Z',
  updated_at: '2026-11-21T09:00:00.000Z',
  completed_at: null,
});

const OpsList = () => <h1>Ops list</h1>;

function open(activity: ReturnType<typeof activityOf>) {
  const calls = mockFetch((call) => {
    if (call.method === 'PATCH') return { status: 200, body: activity };
    if (call.url.startsWith('/api/ops/outstanding-activities/41/')) {
      return { status: 200, body: activity };
    }
    return { status: 200, body: { count: 0, next: null, previous: null, results: [] } };
  });
  const router = createMemoryRouter(
    [
      { path: '/ops/outstanding-activities/:id', Component: OpsOutstandingDetail },
      { path: '/ops/outstanding-activities', Component: OpsList },
    ],
    { initialEntries: ['/ops/outstanding-activities/41'] },
  );
  renderWithProviders(<RouterProvider router={router} />);
  return { calls, router };
}

describe('outstanding activity (operations)', () => {
  it('sends a document collection awaiting operations back through the ops path', async () => {
    const { calls, router } = open(activityOf('document-collection', 'ca-awaiting-ops'));
    await userEvent.click(await screen.findByRole('button', { name: 'Send back to the person' }));
    const dialog = await screen.findByRole('dialog', { name: 'Send back to the person' });
    expect(dialog).not.toHaveTextContent('identity verification');
    await userEvent.click(screen.getByRole('button', { name: 'Send back' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/ops/outstanding-activities'));
    expect(calls.filter((c) => c.method === 'PATCH')).toEqual([
      expect.objectContaining({
        url: '/api/ops/case-activities/41/',
        body: { state: 'ca-awaiting-subject' },
      }),
    ]);
  });

  it('offers none for a check whose start failed', async () => {
    open(activityOf('document-collection', 'ca-error-initiating'));
    expect(
      await screen.findByRole('button', { name: /Open the case as Acme/ }),
    ).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Send back to the person' })).toBeNull();
  });

  it('shows who holds it; Claim asks the server, which names the holder when it is taken', async () => {
    const held = {
      ...activityOf('document-collection', 'ca-awaiting-ops'),
      claim: { user_id: 77, name: 'Oscar Ops', claimed_at: '2026-11-22T09:00:00.000Z' },
    };
    const calls = mockFetch((call) => {
      if (call.method === 'POST' && call.url.endsWith('/claim/')) {
        return { status: 409, body: { detail: 'Already claimed by Oscar Ops.' } };
      }
      if (call.url.startsWith('/api/ops/outstanding-activities/41/')) {
        return { status: 200, body: held };
      }
      return { status: 200, body: { count: 0, next: null, previous: null, results: [] } };
    });
    const router = createMemoryRouter(
      [{ path: '/ops/outstanding-activities/:id', Component: OpsOutstandingDetail }],
      { initialEntries: ['/ops/outstanding-activities/41?assignee=unassigned'] },
    );
    renderWithProviders(<RouterProvider router={router} />);
    const bar = await screen.findByTestId('claim-bar');
    expect(bar.textContent).toContain('Assigned to Oscar Ops');
    expect(screen.getByRole('button', { name: 'Release' })).toBeTruthy();
    await userEvent.click(screen.getByRole('button', { name: 'Claim' }));
    await waitFor(() =>
      expect(
        calls.some(
          (c) => c.method === 'POST' && c.url === '/api/ops/outstanding-activities/41/claim/',
        ),
      ).toBe(true),
    );
    // the way back keeps the list's filters
    const back = screen.getByRole('link', { name: /Outstanding activities/ });
    expect(back.getAttribute('href')).toBe('/ops/outstanding-activities?assignee=unassigned');
  });
});
