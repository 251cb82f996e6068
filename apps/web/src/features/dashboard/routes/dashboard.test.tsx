import { screen } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { resetSession, setSession } from '../../../lib/session/session-store';
import { mockFetch } from '../../../test/fetch-mock';
import { renderWithProviders } from '../../../test/render';
import { product, productIn } from '../../../test/sessions';
import DashboardPage from './dashboard';

const dashboard = {
  cases_by_state: { complete: 0 },
  open_cases: 0,
  outstanding_activities: 0,
  flagged_cases: 0,
  active_flags: 0,
  completed_by_week: [],
  recent_audit: [
    {
      id: 1,
      actor_type: null,
      actor_name: 'system',
      verb: 'resolved',
      content_type: 'flags.flag',
      object_repr: 'Name mismatch',
      created_at: '2026-11-24T09:00:00.000Z',
    },
  ],
};

afterEach(() => {
  vi.unstubAllGlobals();
  resetSession();
});

function renderAt(url: string) {
  setSession(productIn(product({ session_permissions: ['cases.view_case'] })));
  mockFetch(() => ({ status: 200, body: dashboard }));
  renderWithProviders(
    <MemoryRouter initialEntries={[url]}>
      <DashboardPage />
    </MemoryRouter>,
  );
}

describe('dashboard greeting and recent activity', () => {
  it("greets a new sign-up 'Welcome', not 'Welcome back'", async () => {
    renderAt('/dashboard?welcome=new');
    expect(await screen.findByText(/^Welcome, Ada/)).toBeTruthy();
    expect(screen.queryByText(/Welcome back/)).toBeNull();
  });

  it("greets a returning user 'Welcome back'", async () => {
    renderAt('/dashboard');
    expect(await screen.findByText(/^Welcome back, Ada/)).toBeTruthy();
  });

  it("names the system 'System' in the recent activity", async () => {
    renderAt('/dashboard');
    expect(await screen.findByText('System')).toBeTruthy();
    expect(screen.queryByText('system')).toBeNull();
  });
});
