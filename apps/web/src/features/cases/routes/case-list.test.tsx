import { fireEvent, screen } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { mockFetch } from '../../../test/fetch-mock';
import { renderWithProviders } from '../../../test/render';
import CaseList from './case-list';

const page = (results: unknown[]) => ({
  count: results.length,
  next: null,
  previous: null,
  results,
});

/** `guarded`: the route has a loader, as the app's routes do (its guard): navigating waits for it. */
function renderList(at = '/cases', guarded = false) {
  const loader = guarded ? async () => null : undefined;
  const router = createMemoryRouter([{ path: '/cases', Component: CaseList, loader }], {
    initialEntries: [at],
  });
  renderWithProviders(<RouterProvider router={router} />);
  return router;
}

const isCaseList = (url: string) => new URL(url, 'http://x').pathname === '/api/cases/';

afterEach(() => vi.unstubAllGlobals());

describe('case list states', () => {
  it('says a failed load failed, not that no case matches, and offers to try again', async () => {
    mockFetch((c) =>
      isCaseList(c.url) ? { status: 500, body: {} } : { status: 200, body: page([]) },
    );
    renderList();
    expect(await screen.findByText('The cases could not be loaded')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Try again' })).toBeInTheDocument();
    expect(screen.queryByText(/match/)).toBeNull();
    expect(screen.getByTestId('case-count')).toHaveTextContent('Not loaded');
  });

  it('greets an organisation with no cases and no filters with what to do first', async () => {
    mockFetch(() => ({ status: 200, body: page([]) }));
    renderList();
    expect(await screen.findByText('No cases yet')).toBeInTheDocument();
    expect(screen.getByText(/Open your first case/)).toBeInTheDocument();
  });

  it('says filters match nothing and clears them, keeping nothing of the old search', async () => {
    const calls = mockFetch(() => ({ status: 200, body: page([]) }));
    const router = renderList('/cases?search=zed&state=complete');
    expect(await screen.findByText('No cases match your search or filters')).toBeInTheDocument();
    fireEvent.click(screen.getByRole('button', { name: 'Clear filters' }));
    expect(await screen.findByText('No cases yet')).toBeInTheDocument();
    expect(router.state.location.search).toBe('');
    expect(calls.some((c) => c.url.includes('search=zed'))).toBe(true);
  });
});

describe('case list filters', () => {
  it('keeps a filter chosen while the typed search is still on its way (neither overwrites the other)', async () => {
    mockFetch(() => ({ status: 200, body: page([]) }));
    const router = renderList('/cases', true);
    expect(await screen.findByText('No cases yet')).toBeInTheDocument();
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    try {
      // the search waits 300 ms; meanwhile 'All cases' is chosen, and the search's update comes
      // before the router has finished that navigation (it is asynchronous)
      fireEvent.change(screen.getByLabelText('Search'), { target: { value: 'walker' } });
      fireEvent.click(screen.getAllByLabelText('Archived')[0] as HTMLElement);
      fireEvent.click(screen.getByRole('option', { name: 'All cases', hidden: true }));
      vi.advanceTimersByTime(300);
    } finally {
      vi.useRealTimers();
    }
    await vi.waitFor(() => {
      const sp = new URLSearchParams(router.state.location.search);
      expect(sp.get('search')).toBe('walker');
      expect(sp.get('is_archived')).toBe('all');
    });
  });
});
