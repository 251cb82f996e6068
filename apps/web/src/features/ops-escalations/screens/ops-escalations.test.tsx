import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { mockFetch } from '../../../test/fetch-mock';
import { renderWithProviders } from '../../../test/render';
import OpsEscalations from './ops-escalations';

const open = {
  id: 7,
  customer_id: 3,
  customer_name: 'Acme Taxis',
  case_id: 41,
  subject_id: 12,
  subject_name: 'Sam Okafor',
  activity_id: 205,
  check: 'Basic DBS check',
  state: 'ca-in-progress',
  expected_on: '2026-11-20',
  days_overdue: 9,
  escalated_at: '2026-11-21T01:00:00.000Z',
  resolved_at: null,
};
const resolved = {
  ...open,
  id: 6,
  case_id: 40,
  activity_id: 200,
  subject_name: '',
  check: 'DVLA licence check',
  days_overdue: 1,
  resolved_at: '2026-11-25T10:00:00.000Z',
};
const page = (results: unknown[], count = results.length) => ({ count, results });
const customers = page([
  { id: 3, name: 'Acme Taxis' },
  { id: 4, name: 'Borough Cabs' },
]);

function renderScreen(at = '/ops/escalations') {
  const router = createMemoryRouter([{ path: '/ops/escalations', Component: OpsEscalations }], {
    initialEntries: [at],
  });
  renderWithProviders(<RouterProvider router={router} />);
  return router;
}

const listCalls = (calls: { url: string }[]) =>
  calls
    .map((c) => new URL(c.url, 'http://x'))
    .filter((u) => u.pathname === '/api/ops/escalations/');

afterEach(() => vi.unstubAllGlobals());

describe('ops escalations', () => {
  it('lists the open escalations with customer, subject, case, dates and a link to the check', async () => {
    const calls = mockFetch((call) =>
      call.url.startsWith('/api/ops/escalations/')
        ? { status: 200, body: page([open]) }
        : { status: 200, body: customers },
    );
    renderScreen();
    const row = await screen.findByTestId('escalation-7');
    const cells = within(row);
    expect(cells.getByText('Acme Taxis')).toBeTruthy();
    expect(cells.getByText('Sam Okafor')).toBeTruthy();
    expect(cells.getByText('9 days')).toBeTruthy();
    expect(cells.getByText('Open')).toBeTruthy();
    expect(cells.getByRole('link', { name: 'Basic DBS check' }).getAttribute('href')).toBe(
      '/ops/outstanding-activities/205',
    );
    const caseLink = cells.getByRole('link', { name: 'Case 41 of Acme Taxis' });
    expect(caseLink.textContent).toBe('#41');
    expect(caseLink.getAttribute('href')).toBe('/cases/41');
    const [first] = listCalls(calls);
    expect(first?.searchParams.get('status')).toBe('open');
    expect(first?.searchParams.get('customer')).toBeNull();
    expect(first?.searchParams.get('page')).toBe('1');
  });

  it('filters by status and customer from the URL, shows resolved ones, pages', async () => {
    const calls = mockFetch((call) =>
      call.url.startsWith('/api/ops/escalations/')
        ? { status: 200, body: page([resolved], 30) }
        : { status: 200, body: customers },
    );
    renderScreen('/ops/escalations?status=resolved&customer=3');
    const row = await screen.findByTestId('escalation-6');
    expect(within(row).getByText('1 day')).toBeTruthy();
    expect(within(row).getByText(/^Resolved/)).toBeTruthy();
    expect(within(row).getByText('—')).toBeTruthy();
    const [first] = listCalls(calls);
    expect(first?.searchParams.get('status')).toBe('resolved');
    expect(first?.searchParams.get('customer')).toBe('3');
    // 30 escalations, 25 a page: page 2 asked for with the same filters
    fireEvent.click(screen.getByRole('button', { name: 'Page 2' }));
    await waitFor(() => expect(listCalls(calls).at(-1)?.searchParams.get('page')).toBe('2'));
    expect(listCalls(calls).at(-1)?.searchParams.get('customer')).toBe('3');
    // back to the open ones: the status leaves the URL, the page restarts
    fireEvent.click(screen.getByRole('radio', { name: 'Open' }));
    await waitFor(() => expect(listCalls(calls).at(-1)?.searchParams.get('status')).toBe('open'));
    expect(listCalls(calls).at(-1)?.searchParams.get('page')).toBe('1');
  });

  it('says so when nothing is escalated, and when the list fails', async () => {
    mockFetch((call) =>
      call.url.startsWith('/api/ops/escalations/')
        ? { status: 200, body: page([]) }
        : { status: 200, body: customers },
    );
    renderScreen();
    await screen.findByText('No open escalations');
    vi.unstubAllGlobals();
    mockFetch((call) =>
      call.url.startsWith('/api/ops/escalations/')
        ? { status: 500, body: { detail: 'boom' } }
        : { status: 200, body: customers },
    );
    renderScreen('/ops/escalations?status=all');
    await screen.findByText('The escalations could not be loaded.');
  });
});
