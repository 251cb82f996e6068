import { screen, within } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { describe, expect, it } from 'vitest';
import { renderWithProviders } from '../../test/render';
import { DbsResultPanel } from './dbs-result-panel';
import { DriverDataPanel } from './driver-data-panel';
import { LicenceCheckPanel } from './licence-check-panel';
import { OnlineIdvPanel } from './online-idv-panel';
import { type Audience, PANEL_TEXTS, type PanelActivity } from './panel-kit';
import { RtwPanel } from './rtw-panel';
import { TrustToRidePanel } from './trust-to-ride-panel';

/*
 * Issue 27 (wrong texts): a cancelled check waits for nothing any more. Its panel says it was
 * cancelled instead of a waiting message ('not yet', 'Waiting for', 'Not recorded yet',
 * 'Awaiting top-up payment'), for every audience.
 */

const AUDIENCES: Audience[] = ['customer', 'subject', 'ops'];
const WAITING = /not yet|has not been|Waiting for|Awaiting|Not recorded yet|No session booked/;

const cancelled = (activity_type: string, result_data: Record<string, unknown> = {}) =>
  ({
    id: 61,
    state: 'ca-cancelled',
    activity_type,
    result_data,
    processing_data: {},
    case: { id: 14 },
  }) satisfies PanelActivity;

const inRouter = (ui: React.ReactElement) => renderWithProviders(<MemoryRouter>{ui}</MemoryRouter>);

describe('a cancelled check says so, not what it waited for', () => {
  for (const audience of AUDIENCES) {
    it(`${audience}: online identity, right to work and driver data without a result`, () => {
      for (const [testId, ui] of [
        [
          'online-idv-panel',
          <OnlineIdvPanel key="idv" activity={cancelled('online-idv')} audience={audience} />,
        ],
        ['rtw-panel', <RtwPanel key="rtw" activity={cancelled('rtw')} audience={audience} />],
        [
          'driver-data-panel',
          <DriverDataPanel key="dd" activity={cancelled('driver-data')} audience={audience} />,
        ],
      ] as const) {
        const { unmount } = renderWithProviders(ui);
        const panel = screen.getByTestId(testId);
        expect([testId, panel.textContent]).toEqual([testId, PANEL_TEXTS.cancelled]);
        unmount();
      }
    });

    it(`${audience}: trust-to-ride with no session booked, and with a session never attended`, () => {
      const { unmount } = renderWithProviders(
        <TrustToRidePanel activity={cancelled('trust-to-ride')} audience={audience} />,
      );
      expect(screen.getByTestId('trust-to-ride-outcome')).toHaveTextContent(PANEL_TEXTS.cancelled);
      expect(screen.queryByTestId('trust-to-ride-booking')).toBeNull();
      unmount();
      const session = { id: 3, date: '2026-03-10', time: '09:30', place: 'Depot, Unit 4' };
      renderWithProviders(
        <TrustToRidePanel activity={cancelled('trust-to-ride', { session })} audience={audience} />,
      );
      const panel = screen.getByTestId('trust-to-ride-panel');
      expect(within(panel).getByText('Depot, Unit 4')).toBeInTheDocument();
      expect(panel.textContent).toContain(PANEL_TEXTS.cancelled);
      expect(panel.textContent).not.toMatch(WAITING);
    });

    it(`${audience}: a licence check cancelled while awaiting the DVLA: no wait, no next check`, () => {
      renderWithProviders(
        <LicenceCheckPanel
          activity={cancelled('licence-check', {
            status: 'AwaitingCheck',
            last_check_date: '2026-11-01',
            next_check_date: '2027-02-01',
          })}
          audience={audience}
        />,
      );
      expect(screen.getByTestId('licence-check-message')).toHaveTextContent(PANEL_TEXTS.cancelled);
      // the service's last status stays a fact; the next check that will not come goes
      const panel = screen.getByTestId('licence-check-panel');
      expect(screen.getAllByTestId('licence-check-message')).toHaveLength(1);
      expect(within(panel).getByText('1st Nov 2026')).toBeInTheDocument();
      expect(within(panel).queryByText('1st Feb 2027')).toBeNull();
    });

    it(`${audience}: a criminal-record check cancelled while a top-up was awaited`, () => {
      inRouter(
        <DbsResultPanel
          audience={audience}
          activity={{
            ...cancelled('dbs-enhanced'),
            processing_data: {
              top_up: { status: 'awaiting', amount_pence: 1300, payment_intent: 'pit_1' },
            },
          }}
        />,
      );
      expect(screen.queryByTestId('dbs-top-up')).toBeNull();
      expect(screen.queryByText('Awaiting top-up payment')).toBeNull();
      expect(screen.getByTestId('dbs-cancelled')).toHaveTextContent(PANEL_TEXTS.cancelled);
    });
  }
});
