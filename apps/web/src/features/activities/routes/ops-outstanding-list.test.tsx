import { screen } from '@testing-library/react';
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
    expect(await screen.findByText('Northgate Council')).toBeTruthy();
    expect(screen.getByText('Knowledge test')).toBeTruthy();
    expect(screen.getByText('Sam Green')).toBeTruthy();
    const links = screen.getAllByRole('link');
    expect(links.some((l) => l.getAttribute('href') === '/ops/outstanding-activities/41')).toBe(
      true,
    );
    const list = calls.find((c) => c.url.startsWith('/api/ops/outstanding-activities/'));
    expect(list).toBeTruthy();
    expect(calls.some((c) => c.url.startsWith('/api/ops/customers/'))).toBe(true);
  });
});
