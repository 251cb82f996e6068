import { screen } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { resetSession, setSession } from '../../../lib/session/session-store';
import { mockFetch } from '../../../test/fetch-mock';
import { renderWithProviders } from '../../../test/render';
import { product, productIn } from '../../../test/sessions';
import { CaseViews } from './case-views';

const view = (over: Record<string, unknown>) => ({
  id: 1,
  customer: 1,
  case: 7,
  item_kind: 'criminal_record',
  item_id: 3,
  item_label: 'Enhanced DBS check',
  how: 'page',
  actor_type: 'ProductUser',
  actor: 2,
  actor_name: 'Ada Admin',
  actor_is_ops: false,
  count: 3,
  first_seen_at: '2026-11-24T09:15:00.000Z',
  last_seen_at: '2026-11-24T11:40:00.000Z',
  ip: '203.0.113.24',
  user_agent: 'Chrome on Windows',
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

describe("a case's 'Who saw what'", () => {
  it('lists who saw which result or document, how and how many times, for audit readers', async () => {
    setSession(productIn(product({ session_permissions: ['audit.view_auditaction'] })));
    const urls: string[] = [];
    mockFetch(({ url }) => {
      urls.push(url);
      return {
        status: 200,
        body: page([
          view({}),
          view({
            id: 2,
            item_kind: 'document',
            item_label: 'passport · passport.png',
            how: 'download',
            actor_name: 'Olivia Ops',
            actor_is_ops: true,
            count: 1,
          }),
        ]),
      };
    });
    renderWithProviders(
      <MemoryRouter>
        <CaseViews caseId={7} />
      </MemoryRouter>,
    );
    expect(await screen.findByText('Enhanced DBS check')).toBeTruthy();
    expect(urls.some((u) => u.includes('/api/record-views/') && u.includes('case=7'))).toBe(true);
    expect(screen.getAllByText('Ada Admin').length).toBeGreaterThan(0);
    expect(screen.getAllByText('Viewed').length).toBeGreaterThan(0);
    expect(screen.getAllByText('Downloaded').length).toBeGreaterThan(0);
    expect(screen.getAllByText('Kestrel operations').length).toBeGreaterThan(0);
    expect(screen.getAllByText('3').length).toBeGreaterThan(0);
    expect(screen.getAllByText(/^first .*09:15$/).length).toBeGreaterThan(0);
  });

  it('is not shown to those who may not read the audit log', () => {
    setSession(productIn(product({ session_permissions: ['cases.view_case'] })));
    const calls = mockFetch(() => ({ status: 200, body: page([]) }));
    renderWithProviders(
      <MemoryRouter>
        <CaseViews caseId={7} />
      </MemoryRouter>,
    );
    expect(screen.queryByText('Who saw what')).toBeNull();
    expect(calls.filter((c) => c.url.includes('/api/record-views/'))).toEqual([]);
  });
});
