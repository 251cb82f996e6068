import { TOP_UP_DEMANDED_AGAIN } from '@kestrel/domain';
import { useQuery } from '@tanstack/react-query';
import { fireEvent, screen, waitFor } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { afterEach, describe, expect, it } from 'vitest';
import { request, setCsrfToken } from '../../api/client';
import { mockFetch } from '../../test/fetch-mock';
import { renderWithProviders } from '../../test/render';
import { ActivityResult } from './activity-result';
import type { Audience, PanelActivity } from './panel-kit';

const failed = (over: Partial<PanelActivity> = {}): PanelActivity => ({
  id: 7,
  state: 'ca-error-initiating',
  activity_type: 'dbs-enhanced',
  config: {},
  result_data: {},
  processing_data: {
    provider: 'ebulk',
    attempts: 5,
    last_error: 'ebulk: 503 Service Unavailable',
  },
  case: { id: 14 },
  ...over,
});

const inRouter = (ui: React.ReactElement) => renderWithProviders(<MemoryRouter>{ui}</MemoryRouter>);

/** The page around the panel: the activity read from the API, as the case pages do. */
function Page({ audience }: { audience: Audience }) {
  const q = useQuery({
    queryKey: ['/api/ops/case-activities/', 'item', 7],
    queryFn: async () => {
      const r = await request<PanelActivity>('GET', '/api/ops/case-activities/7/');
      if (!r.ok) throw new Error('no activity');
      return r.data;
    },
  });
  if (!q.data) return null;
  return (
    <>
      <p data-testid="page-state">{q.data.state}</p>
      <ActivityResult activity={q.data} audience={audience} family="ops" />
    </>
  );
}

afterEach(() => setCsrfToken(''));

describe('ops retry of an activity whose start failed', () => {
  it('ops: shows the last error and Retry; a retry posts with the CSRF token and refetches (in progress)', async () => {
    setCsrfToken('csrf-1');
    let state = 'ca-error-initiating';
    const calls = mockFetch((call) => {
      if (call.method === 'POST' && call.url === '/api/ops/case-activities/7/retry/') {
        state = 'ca-in-progress';
        return {
          status: 200,
          body: { id: 7, state, processing_data: { attempts: 0, last_error: null } },
        };
      }
      if (call.url === '/api/ops/case-activities/7/') {
        return {
          status: 200,
          body: failed({
            state,
            processing_data:
              state === 'ca-error-initiating'
                ? { last_error: 'ebulk: 503 Service Unavailable' }
                : { last_error: null },
          }),
        };
      }
      return { status: 404, body: {} };
    });
    inRouter(<Page audience="ops" />);
    expect(await screen.findByTestId('activity-retry')).toBeInTheDocument();
    expect(screen.getByTestId('activity-last-error')).toHaveTextContent(
      'Last error: ebulk: 503 Service Unavailable',
    );
    fireEvent.click(screen.getByRole('button', { name: 'Retry' }));
    await waitFor(() =>
      expect(screen.getByTestId('page-state')).toHaveTextContent('ca-in-progress'),
    );
    const post = calls.find((c) => c.method === 'POST');
    expect(post).toMatchObject({ url: '/api/ops/case-activities/7/retry/', body: {} });
    expect(post?.headers['x-csrftoken']).toBe('csrf-1');
    expect(await screen.findByText('Successfully updated case activity')).toBeInTheDocument();
    expect(screen.queryByTestId('activity-retry')).toBeNull();
    expect(screen.queryByRole('button', { name: 'Retry' })).toBeNull();
    // the activity was read again after the retry
    expect(calls.filter((c) => c.url === '/api/ops/case-activities/7/').length).toBe(2);
  });

  it('ops: a refused retry shows the error with the server message and keeps the button', async () => {
    mockFetch((call) =>
      call.method === 'POST'
        ? {
            status: 400,
            body: { state: ['Only an activity whose start failed can be retried.'] },
          }
        : { status: 404, body: {} },
    );
    inRouter(<ActivityResult activity={failed()} audience="ops" family="ops" />);
    fireEvent.click(screen.getByRole('button', { name: 'Retry' }));
    expect(await screen.findByText(/Error updating case activity/)).toBeInTheDocument();
    expect(
      screen.getByText(/Only an activity whose start failed can be retried\./),
    ).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Retry' })).toBeEnabled();
  });

  it('ops: no last error recorded, the Retry button alone', () => {
    mockFetch(() => ({ status: 404, body: {} }));
    inRouter(
      <ActivityResult
        activity={failed({ processing_data: { last_error: null } })}
        audience="ops"
        family="ops"
      />,
    );
    expect(screen.getByRole('button', { name: 'Retry' })).toBeInTheDocument();
    expect(screen.queryByTestId('activity-last-error')).toBeNull();
  });

  for (const state of ['ca-in-progress', 'ca-pending', 'ca-complete', 'ca-awaiting-ops']) {
    it(`ops: no Retry while the activity is ${state}`, () => {
      mockFetch(() => ({ status: 404, body: {} }));
      inRouter(<ActivityResult activity={failed({ state })} audience="ops" family="ops" />);
      expect(screen.queryByTestId('activity-retry')).toBeNull();
      expect(screen.queryByRole('button', { name: 'Retry' })).toBeNull();
    });
  }

  for (const audience of ['customer', 'subject'] as const) {
    it(`${audience}: never a Retry, nor the provider's error, even in ca-error-initiating`, async () => {
      const calls = mockFetch(() => ({ status: 404, body: {} }));
      inRouter(<ActivityResult activity={failed()} audience={audience} />);
      await waitFor(() => expect(calls.length).toBeGreaterThan(0));
      expect(screen.queryByTestId('activity-retry')).toBeNull();
      expect(screen.queryByRole('button', { name: 'Retry' })).toBeNull();
      expect(screen.queryByText(/503 Service Unavailable/)).toBeNull();
      expect(calls.some((c) => c.url.includes('/retry/'))).toBe(false);
    });
  }
});

describe('why a check waits for a decision', () => {
  const again = (over: Partial<PanelActivity> = {}) =>
    failed({
      state: 'ca-pending-activity-decision',
      processing_data: { provider: 'ebulk', attempts: 0, last_error: TOP_UP_DEMANDED_AGAIN },
      ...over,
    });

  for (const audience of ['customer', 'ops'] as const) {
    it(`${audience}: a top-up asked for again after payment says so`, () => {
      mockFetch(() => ({ status: 404, body: {} }));
      inRouter(<ActivityResult activity={again()} audience={audience} />);
      expect(screen.getByTestId('activity-decision-reason')).toHaveTextContent(
        TOP_UP_DEMANDED_AGAIN,
      );
      expect(screen.getByText('A decision is needed')).toBeInTheDocument();
    });
  }

  it('subject: not shown', () => {
    mockFetch(() => ({ status: 404, body: {} }));
    inRouter(<ActivityResult activity={again()} audience="subject" />);
    expect(screen.queryByTestId('activity-decision-reason')).toBeNull();
  });

  it("not a provider's own error text, nor outside a decision", () => {
    mockFetch(() => ({ status: 404, body: {} }));
    const { unmount } = inRouter(
      <ActivityResult
        activity={again({
          processing_data: { provider: 'ebulk', attempts: 0, last_error: 'ebulk: 500' },
        })}
        audience="customer"
      />,
    );
    expect(screen.queryByTestId('activity-decision-reason')).toBeNull();
    unmount();
    inRouter(<ActivityResult activity={again({ state: 'ca-in-progress' })} audience="customer" />);
    expect(screen.queryByTestId('activity-decision-reason')).toBeNull();
  });
});
