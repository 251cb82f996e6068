import { screen } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { mockFetch } from '../../../test/fetch-mock';
import { renderWithProviders } from '../../../test/render';
import OpsDashboard from './ops-dashboard';

afterEach(() => vi.unstubAllGlobals());

const figures = {
  waiting: { total: 5, past_target: 2, unassigned: 4, oldest_since: '2026-11-17T09:00:00.000Z' },
  by_kind: [
    {
      activity_type: 'dbs-enhanced',
      activity_type_name: 'Enhanced DBS check',
      target_hours: 24,
      count: 4,
      past_target: 2,
      oldest_since: '2026-11-17T09:00:00.000Z',
    },
  ],
  by_age: [
    { bucket: 'over-7-days', label: 'Over 7 days', min_days: 7, max_days: null, count: 1 },
    { bucket: '3-7-days', label: '3 to 7 days', min_days: 3, max_days: 7, count: 0 },
    { bucket: '1-3-days', label: '1 to 3 days', min_days: 1, max_days: 3, count: 2 },
    { bucket: 'under-1-day', label: 'Under a day', min_days: 0, max_days: 1, count: 2 },
  ],
  completed_by_week: [{ week_start: '2026-11-23', count: 3 }],
  provider_errors: 1,
  dead_jobs: 0,
  open_escalations: 3,
  payments: { declined: 1, awaiting: 1, refunds_unanswered: 2 },
  imports_running: null,
};

describe('ops dashboard', () => {
  it('links every figure to the queue filtered behind it', async () => {
    mockFetch(() => ({ status: 200, body: figures }));
    const router = createMemoryRouter([{ path: '/ops/dashboard', Component: OpsDashboard }], {
      initialEntries: ['/ops/dashboard'],
    });
    renderWithProviders(<RouterProvider router={router} />);
    await screen.findByTestId('by-kind');
    const hrefOf = (name: string | RegExp) =>
      screen.getByRole('link', { name }).getAttribute('href');
    expect(hrefOf(/^Past target/)).toBe('/ops/outstanding-activities?past_target=true');
    // a refund the provider never answered: an alert, to the payments filtered to them
    expect(hrefOf(/^Refunds unanswered/)).toBe('/ops/portal-payments?refund=unanswered');
    expect(screen.getByTestId('figure-Refunds unanswered').textContent).toContain('2');
    // checks past their expected date, escalated and still open (issue 33)
    expect(hrefOf(/^Escalated checks/)).toBe('/ops/escalations');
    expect(screen.getByTestId('figure-Escalated checks').textContent).toContain('3');
    expect(hrefOf(/^Unassigned/)).toBe('/ops/outstanding-activities?assignee=unassigned');
    expect(hrefOf(/^Provider errors/)).toBe(
      '/ops/outstanding-activities?state=ca-error-initiating',
    );
    expect(hrefOf('Enhanced DBS check: 4 waiting')).toBe(
      '/ops/outstanding-activities?activity_type=dbs-enhanced',
    );
    expect(hrefOf('Enhanced DBS check: 2 past target')).toBe(
      '/ops/outstanding-activities?activity_type=dbs-enhanced&past_target=true',
    );
    expect(hrefOf('1 to 3 days: 2 waiting')).toBe(
      '/ops/outstanding-activities?older_than_days=1&newer_than_days=3',
    );
    expect(hrefOf('Over 7 days: 1 waiting')).toBe('/ops/outstanding-activities?older_than_days=7');
    expect(screen.getByTestId('throughput-chart').getAttribute('aria-label')).toContain(
      '3 in total',
    );
    // no imports module yet: no figure for it
    expect(screen.queryByText('Imports running')).toBeNull();
  });
});
