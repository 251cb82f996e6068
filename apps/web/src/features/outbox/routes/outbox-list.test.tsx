import { screen } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { mockFetch } from '../../../test/fetch-mock';
import { renderWithProviders } from '../../../test/render';
import OutboxList from './outbox-list';

const page = (results: unknown[]) => ({
  count: results.length,
  next: null,
  previous: null,
  results,
});

function renderList(at = '/ops/outbox') {
  const router = createMemoryRouter([{ path: '/ops/outbox', Component: OutboxList }], {
    initialEntries: [at],
  });
  renderWithProviders(<RouterProvider router={router} />);
}

afterEach(() => vi.unstubAllGlobals());

describe('outbox list', () => {
  it('says so when the outbox is empty', async () => {
    const calls = mockFetch(() => ({ status: 200, body: page([]) }));
    renderList();
    await screen.findByText('No emails yet');
    expect(screen.queryByTestId('resource-table')).toBeNull();
    expect(calls).toHaveLength(1);
    const url = new URL(calls[0]?.url ?? '', 'http://x');
    expect(url.pathname).toBe('/api/ops/outbox/');
    expect(url.searchParams.get('ordering')).toBe('-created_at');
  });

  it('lists emails newest first with one request, each linking to the email', async () => {
    const calls = mockFetch(() => ({
      status: 200,
      body: page([
        {
          id: 7,
          to: 'viewer@acme.test',
          subject: 'Reset your Kestrel password',
          text: 'Hi',
          html: null,
          created_at: '2026-11-23T10:57:42.000Z',
        },
      ]),
    }));
    renderList();
    const link = await screen.findByRole('link', { name: '23rd Nov 2026 10:57' });
    expect(link.getAttribute('href')).toBe('/ops/outbox/7');
    expect(screen.getByText('viewer@acme.test')).toBeTruthy();
    expect(screen.getByText('Reset your Kestrel password')).toBeTruthy();
    expect(screen.queryByText('No emails yet')).toBeNull();
    // The screen's own count query and the table's first page are the same request.
    expect(calls).toHaveLength(1);
  });

  it('lists the text messages on the SMS channel (issue 33)', async () => {
    const calls = mockFetch((call) => ({
      status: 200,
      body: call.url.includes('/api/ops/outbox-sms/')
        ? page([
            {
              id: 3,
              to: '+447911123457',
              body: 'Kestrel Checks: Acme is waiting for you to complete your checks.',
              template_id: 'kestrel-case-reminder',
              brand: 'Kestrel Checks',
              reference: 'case-9',
              created_at: '2026-11-23T10:57:42.000Z',
            },
          ])
        : page([]),
    }));
    renderList('/ops/outbox?channel=sms');
    await screen.findByText('+447911123457');
    expect(
      screen.getByText('Kestrel Checks: Acme is waiting for you to complete your checks.'),
    ).toBeTruthy();
    expect(calls.some((c) => c.url.includes('/api/ops/outbox-sms/'))).toBe(true);
  });
});
