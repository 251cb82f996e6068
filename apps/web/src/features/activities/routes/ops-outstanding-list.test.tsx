import { screen, within } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { mockFetch } from '../../../test/fetch-mock';
import { renderWithProviders } from '../../../test/render';
import OpsOutstandingList from './ops-outstanding-list';

const page = (results: unknown[]) => ({
  count: results.length,
  next: null,
  previous: null,
  results,
});

const waiting = {
  id: 41,
  case: {
    id: 9,
    state: 'in-progress',
    subject: { id: 3, first_name: 'Sam', last_name: 'Green', email: 'sam@example.test' },
    case_activities: [
      {
        id: 41,
        state: 'ca-awaiting-ops',
        state_display: 'Awaiting ops',
        activity_type: 'knowledge-test',
        activity_type_name: 'Knowledge test',
      },
    ],
  },
  state: 'ca-awaiting-ops',
  state_display: 'Awaiting ops',
  activity_type: 'knowledge-test',
  activity_type_name: 'Knowledge test',
  key: 'knowledge-test',
  config: {},
  result_data: null,
  processing_data: null,
  notes: '',
  created_at: '2026-11-20T09:00:00.000Z',
  updated_at: '2026-11-21T09:00:00.000Z',
  completed_at: null,
  customer: 2,
  customer_name: 'Northgate Council',
};

afterEach(() => vi.unstubAllGlobals());

describe('ops outstanding activities', () => {
  it('lists checks waiting for ops with their customer, each linking to it', async () => {
    const calls = mockFetch((call) => {
      const url = new URL(call.url, 'http://x');
      if (url.pathname === '/api/ops/customers/') {
        return { status: 200, body: page([{ id: 2, name: 'Northgate Council' }]) };
      }
      return { status: 200, body: page([waiting]) };
    });
    const router = createMemoryRouter(
      [{ path: '/ops/outstanding-activities', Component: OpsOutstandingList }],
      { initialEntries: ['/ops/outstanding-activities'] },
    );
    renderWithProviders(<RouterProvider router={router} />);
    const row = await screen.findByTestId('queue-row-41');
    expect(within(row).getByText('Northgate Council')).toBeTruthy();
    expect(within(row).getByText('Knowledge test')).toBeTruthy();
    expect(within(row).getByText('Sam Green')).toBeTruthy();
    expect(within(row).getByText('Unassigned')).toBeTruthy();
    const links = screen.getAllByRole('link');
    expect(links.some((l) => l.getAttribute('href') === '/ops/outstanding-activities/41')).toBe(
      true,
    );
    const list = calls.find((c) => c.url.startsWith('/api/ops/outstanding-activities/'));
    expect(list).toBeTruthy();
    expect(calls.some((c) => c.url.startsWith('/api/ops/customers/'))).toBe(true);
  });

  it('reads its filters from the URL, shows who holds each, and keeps the filters on its links', async () => {
    const claimed = {
      ...waiting,
      claim: { user_id: 7, name: 'Olive Ops', claimed_at: '2026-11-22T09:00:00.000Z' },
    };
    const calls = mockFetch((call) => {
      const url = new URL(call.url, 'http://x');
      if (url.pathname === '/api/ops/customers/') return { status: 200, body: page([]) };
      return { status: 200, body: page([claimed]) };
    });
    const start =
      '/ops/outstanding-activities?activity_type=dbs-enhanced&older_than_days=1&newer_than_days=3&assignee=me';
    const router = createMemoryRouter(
      [{ path: '/ops/outstanding-activities', Component: OpsOutstandingList }],
      { initialEntries: [start] },
    );
    renderWithProviders(<RouterProvider router={router} />);
    const row = await screen.findByTestId('queue-row-41');
    expect(within(row).getByText('Assigned to Olive Ops')).toBeTruthy();
    const list = calls.find((c) => c.url.startsWith('/api/ops/outstanding-activities/'));
    const sent = new URL(list?.url ?? '', 'http://x').searchParams;
    expect(sent.get('activity_type')).toBe('dbs-enhanced');
    expect(sent.get('older_than_days')).toBe('1');
    expect(sent.get('newer_than_days')).toBe('3');
    expect(sent.get('assignee')).toBe('me');
    // a dashboard bucket's age shows as its own choice
    expect((screen.getByRole('combobox', { name: 'Age' }) as HTMLInputElement).value).toBe(
      '1 to 3 days',
    );
    const link = within(row).getAllByRole('link')[0];
    expect(link?.getAttribute('href')).toBe(
      '/ops/outstanding-activities/41?activity_type=dbs-enhanced&assignee=me&older_than_days=1&newer_than_days=3',
    );
  });
});
