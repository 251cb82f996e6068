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

function renderList(at = '/cases') {
  const router = createMemoryRouter([{ path: '/cases', Component: CaseList }], {
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
