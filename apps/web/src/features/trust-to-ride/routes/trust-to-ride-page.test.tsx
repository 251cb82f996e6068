import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { mockFetch } from '../../../test/fetch-mock';
import { renderWithProviders } from '../../../test/render';
import TrustToRidePage from './trust-to-ride-page';

const page = (results: unknown[]) => ({
  count: results.length,
  next: null,
  previous: null,
  results,
});
const session = (over: Record<string, unknown> = {}) => ({
  id: 5,
  customer: { id: 2, name: 'Northgate Council' },
  date: '2026-03-10',
  time: '09:30',
  starts_at: '2026-03-10T09:30:00.000Z',
  place: 'Depot, Unit 4',
  capacity: 2,
  booked: 2,
  places_left: 0,
  ...over,
});
const booking = (id: number, name: string, attendance: string | null) => ({
  id,
  session: 5,
  case: 30 + id,
  case_activity: 40 + id,
  subject: { id, name, email: `${name.toLowerCase().replace(' ', '.')}@example.test` },
  booked_at: '2026-03-01T10:00:00.000Z',
  attendance,
  recorded_at: attendance ? '2026-03-10T11:00:00.000Z' : null,
});

function open(entry: string) {
  const router = createMemoryRouter([{ path: '/ops/trust-2-ride', Component: TrustToRidePage }], {
    initialEntries: [entry],
  });
  renderWithProviders(<RouterProvider router={router} />);
}

afterEach(() => vi.unstubAllGlobals());

describe('/ops/trust-2-ride', () => {
  it('lists upcoming sessions with their places, and checks a new session before adding it', async () => {
    const calls = mockFetch((call) => {
      const url = new URL(call.url, 'http://x');
      if (url.pathname === '/api/ops/customers/') {
        return { status: 200, body: page([{ id: 2, name: 'Northgate Council' }]) };
      }
      if (call.method === 'POST') return { status: 201, body: { ...session(), bookings: [] } };
      return { status: 200, body: page([session()]) };
    });
    open('/ops/trust-2-ride');
    const table = await screen.findByRole('table', { name: 'Trust to ride sessions' });
    expect(within(table).getByText('10th Mar 2026')).toBeInTheDocument();
    expect(within(table).getByText('Full')).toBeInTheDocument();
    expect(calls.find((c) => c.url.includes('/sessions/'))?.url).toContain('when=upcoming');
    fireEvent.click(screen.getByRole('button', { name: 'Add session' }));
    const form = screen.getByTestId('session-form');
    fireEvent.click(within(form).getByRole('button', { name: 'Add session' }));
    expect((await within(form).findAllByText('Required')).length).toBeGreaterThanOrEqual(4);
    expect(calls.some((c) => c.method === 'POST')).toBe(false);
    await within(form).findByRole('option', { name: 'Northgate Council' });
    fireEvent.change(within(form).getByLabelText(/Customer/), { target: { value: '2' } });
    fireEvent.change(within(form).getByLabelText(/Date/), { target: { value: '2026-03-12' } });
    fireEvent.change(within(form).getByLabelText(/Time/), { target: { value: '14:00' } });
    fireEvent.change(within(form).getByLabelText(/Place/), {
      target: { value: 'Council offices' },
    });
    fireEvent.click(within(form).getByRole('button', { name: 'Add session' }));
    await waitFor(() =>
      expect(calls.find((c) => c.method === 'POST')?.body).toEqual({
        customer: 2,
        date: '2026-03-12',
        time: '14:00',
        place: 'Council offices',
        capacity: 8,
      }),
    );
  });

  it("shows a past session's register and records attendance", async () => {
    const calls = mockFetch((call) => {
      const url = new URL(call.url, 'http://x');
      if (url.pathname.endsWith('/attendance/'))
        return { status: 200, body: booking(2, 'Bo Bell', 'attended') };
      if (url.pathname === '/api/ops/trust-to-ride/unbooked-activities/') {
        return { status: 200, body: { results: [] } };
      }
      return {
        status: 200,
        body: {
          ...session(),
          bookings: [booking(1, 'Ann Ash', 'did-not-attend'), booking(2, 'Bo Bell', null)],
        },
      };
    });
    open('/ops/trust-2-ride?session=5');
    const register = await screen.findByRole('table', { name: 'Attendance register' });
    expect(within(register).getAllByText('Did not attend')).toHaveLength(2);
    // a full session has no place left: 0, not the dash of a missing value
    expect(screen.getByText('Places left').nextElementSibling?.textContent).toBe('0');
    fireEvent.click(within(register).getByRole('button', { name: 'Attended' }));
    await waitFor(() =>
      expect(calls.find((c) => c.method === 'POST')).toMatchObject({
        url: '/api/ops/trust-to-ride/bookings/2/attendance/',
        body: { attendance: 'attended' },
      }),
    );
  });

  it('stacks the register and the list into cards on a phone: every cell labelled, no box scrolling sideways', async () => {
    mockFetch((call) => {
      const url = new URL(call.url, 'http://x');
      if (url.pathname === '/api/ops/trust-to-ride/unbooked-activities/')
        return { status: 200, body: { results: [] } };
      if (url.pathname === '/api/ops/trust-to-ride/sessions/')
        return { status: 200, body: page([session()]) };
      return {
        status: 200,
        body: { ...session(), bookings: [booking(1, 'Ann Ash', 'attended')] },
      };
    });
    open('/ops/trust-2-ride?session=5');
    /** Each body cell's label (its column's header, shown on a phone), by row. */
    const labels = (table: HTMLElement) =>
      [...table.querySelectorAll('tbody tr')].map((tr) =>
        [...tr.querySelectorAll('td')].map((td) => td.getAttribute('data-label')),
      );
    const register = await screen.findByRole('table', { name: 'Attendance register' });
    expect(labels(register)).toEqual([['Subject', 'Case', 'Booked', 'Attendance']]);
    // no box of its own that scrolls sideways (the old phone layout)
    expect(register.closest('[role="region"]')).toBeNull();
    expect(register.closest('.mantine-ScrollArea-root')).toBeNull();
    fireEvent.click(screen.getByRole('link', { name: '← Sessions' }));
    const list = await screen.findByRole('table', { name: 'Trust to ride sessions' });
    expect(labels(list)).toEqual([['Date', 'Time', 'Place', 'Customer', 'Places']]);
    expect(list.closest('.mantine-ScrollArea-root')).toBeNull();
  });
});
