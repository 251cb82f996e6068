import { fireEvent, screen, waitFor } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { mockFetch } from '../../../test/fetch-mock';
import { renderWithProviders } from '../../../test/render';
import OpsJobs from './ops-jobs';

const dead = {
  id: '5b1c7e0e-2f55-4b61-9d1a-0c8f1d2a3b4c',
  name: 'send-sms',
  state: 'failed',
  retry_count: 5,
  retry_limit: 5,
  created_on: '2026-11-23T10:57:42.000Z',
  start_after: '2026-11-23T10:57:42.000Z',
  started_on: '2026-11-23T11:30:00.000Z',
  completed_on: null,
  error: 'SmsError: The number is not a mobile number.',
  data_summary: 'to=+447911120999, reference=case-9',
};
const page = (results: unknown[]) => ({
  count: results.length,
  next: null,
  previous: null,
  results,
});

function renderJobs(at = '/ops/jobs') {
  const router = createMemoryRouter([{ path: '/ops/jobs', Component: OpsJobs }], {
    initialEntries: [at],
  });
  renderWithProviders(<RouterProvider router={router} />);
}

afterEach(() => vi.unstubAllGlobals());

describe('ops jobs', () => {
  it('lists the dead jobs with their data, error and attempts; retries one', async () => {
    const calls = mockFetch((call) =>
      call.method === 'POST'
        ? { status: 200, body: { detail: 'Job queued again' } }
        : { status: 200, body: page([dead]) },
    );
    renderJobs();
    await screen.findByText('send-sms');
    expect(screen.getByText('to=+447911120999, reference=case-9')).toBeTruthy();
    expect(screen.getByText('SmsError: The number is not a mobile number.')).toBeTruthy();
    expect(screen.getByText('6 of 6')).toBeTruthy();
    const list = new URL(calls[0]?.url ?? '', 'http://x');
    expect(list.pathname).toBe('/api/ops/jobs/');
    expect(list.searchParams.get('state')).toBe('failed');
    fireEvent.click(screen.getByRole('button', { name: 'Retry' }));
    await waitFor(() =>
      expect(calls.map((c) => c.url)).toContain(`/api/ops/jobs/${dead.id}/retry/`),
    );
  });

  it('says so when no job is dead', async () => {
    mockFetch(() => ({ status: 200, body: page([]) }));
    renderJobs();
    await screen.findByText('No dead jobs');
  });
});
