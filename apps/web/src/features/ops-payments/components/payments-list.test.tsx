import { fireEvent, screen, waitFor } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { resetSession, setSession } from '../../../lib/session/session-store';
import { type Call, mockFetch } from '../../../test/fetch-mock';
import { renderWithProviders } from '../../../test/render';
import { boot, product, productIn } from '../../../test/sessions';
import OpsPortalPayments from '../screens/ops-portal-payments';

const empty = { count: 0, next: null, previous: null, results: [] };

afterEach(() => {
  resetSession();
  vi.unstubAllGlobals();
});

const listCalls = (calls: Call[]) =>
  calls.filter((c) => new URL(c.url, 'http://x').pathname === '/api/ops/portal-payments/');

describe('ops payments list', () => {
  it("opens on the dashboard alert's filter: refunds unanswered, and lets it go", async () => {
    const calls = mockFetch(() => ({ status: 200, body: empty }));
    const p = product({ is_ops: true, customer: null, session_permissions: [] });
    setSession({ ...productIn(p), bootstrap: boot(p) });
    const router = createMemoryRouter(
      [{ path: '/ops/portal-payments', Component: OpsPortalPayments }],
      { initialEntries: ['/ops/portal-payments?refund=unanswered'] },
    );
    renderWithProviders(<RouterProvider router={router} />);
    const box = await screen.findByRole('checkbox', {
      name: 'Refunds unanswered for over 1 hour',
    });
    expect((box as HTMLInputElement).checked).toBe(true);
    await waitFor(() => expect(listCalls(calls).length).toBeGreaterThan(0));
    expect(new URL(listCalls(calls)[0]?.url ?? '', 'http://x').searchParams.get('refund')).toBe(
      'unanswered',
    );
    fireEvent.click(box);
    await waitFor(() => {
      const last = listCalls(calls).at(-1);
      expect(new URL(last?.url ?? '', 'http://x').searchParams.has('refund')).toBe(false);
    });
  });
});
