import { fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { mockFetch } from '../../test/fetch-mock';
import { renderWithProviders } from '../../test/render';
import type { Audience, PanelActivity } from './panel-kit';
import { opsFormFor, resultPanelFor } from './registry';
import { TrustToRidePanel } from './trust-to-ride-panel';

const AUDIENCES: Audience[] = ['customer', 'subject', 'ops'];
const session = { id: 3, date: '2026-03-10', time: '09:30', place: 'Depot, Unit 4' };
const activity = (result_data: Record<string, unknown>, state = 'ca-complete'): PanelActivity => ({
  id: 52,
  state,
  activity_type: 'trust-to-ride',
  result_data,
});

afterEach(() => vi.unstubAllGlobals());

describe('the trust-to-ride panel', () => {
  it.each(AUDIENCES)('says the subject attended (%s)', (audience) => {
    renderWithProviders(
      <TrustToRidePanel
        activity={activity({ session, attendance: 'attended' })}
        audience={audience}
      />,
    );
    expect(screen.getByTestId('trust-to-ride-outcome')).toHaveTextContent(
      'Attended the session on 10th Mar 2026',
    );
    expect(screen.getByText('Depot, Unit 4')).toBeInTheDocument();
  });

  it.each(AUDIENCES)('says the subject did not attend, on the date (%s)', (audience) => {
    renderWithProviders(
      <TrustToRidePanel
        activity={activity({ session, attendance: 'did-not-attend' })}
        audience={audience}
      />,
    );
    expect(screen.getByTestId('trust-to-ride-outcome')).toHaveTextContent(
      'Did not attend the session on 10th Mar 2026',
    );
  });

  it.each(AUDIENCES)('shows a booked session not yet attended (partial, %s)', (audience) => {
    renderWithProviders(
      <TrustToRidePanel activity={activity({ session }, 'ca-in-progress')} audience={audience} />,
    );
    expect(screen.getByTestId('trust-to-ride-outcome')).toHaveTextContent(
      'Booked on the session on 10th Mar 2026 at 09:30, Depot, Unit 4',
    );
    expect(screen.getByText('Not recorded yet')).toBeInTheDocument();
    expect(screen.queryByTestId('trust-to-ride-booking')).toBeNull();
  });

  it.each(['customer', 'ops'] as const)(
    'shows %s that no session is booked yet (missing)',
    (audience) => {
      renderWithProviders(
        <TrustToRidePanel activity={activity({}, 'ca-awaiting-ops')} audience={audience} />,
      );
      expect(screen.getByText('No session booked yet')).toBeInTheDocument();
      expect(screen.queryByTestId('trust-to-ride-booking')).toBeNull();
    },
  );

  it('lets the subject book one of the sessions with places left (missing booking)', async () => {
    const calls = mockFetch((call) =>
      call.method === 'GET'
        ? {
            status: 200,
            body: {
              id: 52,
              state: 'ca-awaiting-ops',
              sessions: [
                {
                  id: 3,
                  customer: { id: 1, name: 'Acme' },
                  date: '2026-03-10',
                  time: '09:30',
                  starts_at: '2026-03-10T09:30:00.000Z',
                  place: 'Depot, Unit 4',
                  capacity: 6,
                  booked: 5,
                  places_left: 1,
                },
              ],
            },
          }
        : { status: 400, body: { session: ['This session is full.'] } },
    );
    renderWithProviders(
      <TrustToRidePanel activity={activity({}, 'ca-awaiting-ops')} audience="subject" />,
    );
    expect(screen.getByText('No session booked yet')).toBeInTheDocument();
    const choice = await screen.findByRole('radio', {
      name: '10th Mar 2026 at 09:30, Depot, Unit 4 (1 place left)',
    });
    fireEvent.click(screen.getByRole('button', { name: 'Book this session' }));
    expect(await screen.findAllByText('Required')).not.toHaveLength(0);
    fireEvent.click(choice);
    fireEvent.click(screen.getByRole('button', { name: 'Book this session' }));
    await waitFor(() =>
      expect(calls.find((c) => c.method === 'POST')).toMatchObject({
        url: '/api/s/trust-to-ride/activities/52/booking/',
        body: { session: 3 },
      }),
    );
    expect(await screen.findAllByText('This session is full.')).not.toHaveLength(0);
  });

  it('is the registry entry for every audience, with no ops form', () => {
    for (const a of AUDIENCES) expect(resultPanelFor('trust-to-ride', a)).toBe(TrustToRidePanel);
    expect(opsFormFor('trust-to-ride')).toBeNull();
  });
});
