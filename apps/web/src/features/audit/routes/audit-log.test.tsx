import { screen } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { resetSession, setSession } from '../../../lib/session/session-store';
import { mockFetch } from '../../../test/fetch-mock';
import { renderWithProviders } from '../../../test/render';
import { product, productIn } from '../../../test/sessions';
import AuditLog from './audit-log';

const entry = (over: Record<string, unknown>) => ({
  id: 1,
  customer: 1,
  actor_type: 'ProductUser',
  actor: 2,
  actor_name: 'Ada Admin',
  verb: 'logged_in',
  content_type: 'users.productuser',
  object_id: '2',
  object_repr: 'admin@acme.test',
  changes: {},
  created_at: '2026-11-24T09:15:00.000Z',
  ...over,
});

const page = (results: unknown[]) => ({
  count: results.length,
  next: null,
  previous: null,
  results,
});

afterEach(() => {
  vi.unstubAllGlobals();
  resetSession();
});

describe('audit log entries in words', () => {
  it('shows actions and objects in words, one actor display, and the system as System', async () => {
    const session = productIn(
      product({ session_permissions: ['audit.view_auditaction', 'users.view_productuser'] }),
    );
    setSession({
      ...session,
      bootstrap: session.bootstrap && {
        ...session.bootstrap,
        verbs: [{ id: 1, code: 'logged_in', name: 'Logged in' }],
      },
    });
    mockFetch(({ url }) => {
      if (url.includes('/api/users/')) {
        return {
          status: 200,
          body: page([
            {
              id: 2,
              username: 'ada@acme.test',
              email: 'ada@acme.test',
              first_name: 'Ada',
              last_name: 'Admin',
              job_title: '',
              is_active: true,
              totp_enabled: false,
              totp_setup_required: false,
              created_at: '2026-11-01T09:00:00.000Z',
              roles: [1],
            },
          ]),
        };
      }
      if (url.includes('/api/audit-actions/')) {
        return {
          status: 200,
          body: page([
            entry({ id: 1 }),
            entry({
              id: 2,
              actor_type: null,
              actor: null,
              actor_name: 'system',
              verb: 'resolved',
              content_type: 'flags.flag',
              object_id: '9',
              object_repr: 'Name mismatch',
            }),
          ]),
        };
      }
      return { status: 200, body: page([]) };
    });
    renderWithProviders(
      <MemoryRouter>
        <AuditLog />
      </MemoryRouter>,
    );
    // Checked across the page, not per table row: the list's phone layout may stack rows.
    expect(await screen.findByText('admin@acme.test')).toBeTruthy();
    expect(screen.getAllByText('Logged in').length).toBeGreaterThan(0);
    expect(screen.getByText('User #2')).toBeTruthy();
    expect(screen.getAllByText('Ada Admin').length).toBeGreaterThan(0);
    expect(await screen.findByText('ada@acme.test')).toBeTruthy();
    expect(screen.queryByText('logged_in')).toBeNull();
    expect(screen.queryByText(/users\.productuser/)).toBeNull();
    expect(screen.getByText('Name mismatch')).toBeTruthy();
    expect(screen.getByText('System')).toBeTruthy();
    expect(screen.getAllByText('Resolved').length).toBeGreaterThan(0);
    expect(screen.getByText('Flag #9')).toBeTruthy();
    expect(screen.queryByText('system')).toBeNull();
  });

  it('lets the keyboard scroll a table wider than the screen (axe scrollable-region-focusable)', async () => {
    setSession(productIn(product({ session_permissions: ['audit.view_auditaction'] })));
    mockFetch(({ url }) =>
      url.includes('/api/audit-actions/')
        ? { status: 200, body: page([entry({ object_repr: 'a'.repeat(300) })]) }
        : { status: 200, body: page([]) },
    );
    renderWithProviders(
      <MemoryRouter>
        <AuditLog />
      </MemoryRouter>,
    );
    await screen.findByText('a'.repeat(300));
    const region = screen.getByRole('region', { name: 'Audit actions' });
    expect(region.tabIndex).toBe(0);
    expect(region.querySelector('table')).toBeTruthy();
  });
});
