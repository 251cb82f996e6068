import { screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { resetSession, setSession } from '../lib/session/session-store';
import { renderWithProviders } from '../test/render';
import { isWarningTime, MaintenanceBanner } from './maintenance-banner';
import { maintenanceWarningText } from './maintenance-warning';

afterEach(() => resetSession());

const inMinutes = (m: number) => new Date(Date.now() + m * 60_000).toISOString();

describe('maintenance warning', () => {
  const window = {
    warning_start: '2026-05-01T08:00:00Z',
    start: '2026-05-01T10:00:00Z',
    end: '2026-05-01T11:00:00Z',
  };
  it('shows from warning_start until start only', () => {
    expect(isWarningTime(window, new Date('2026-05-01T07:59:59Z'))).toBe(false);
    expect(isWarningTime(window, new Date('2026-05-01T08:00:00Z'))).toBe(true);
    expect(isWarningTime(window, new Date('2026-05-01T09:59:59Z'))).toBe(true);
    expect(isWarningTime(window, new Date('2026-05-01T10:00:00Z'))).toBe(false);
  });
  it('renders the banner with the coming window', async () => {
    setSession({
      maintenanceWindow: {
        warning_start: inMinutes(-5),
        start: inMinutes(60),
        end: inMinutes(120),
      },
    });
    renderWithProviders(<MaintenanceBanner />);
    expect(await screen.findByTestId('maintenance-warning')).toHaveTextContent(
      /Planned maintenance: the site will be unavailable from .+ until .+\./,
    );
  });
  it("says the window's dates as 'do MMM y' with the clock time", () => {
    // (the clock time is the machine's zone, so only its shape is checked)
    expect(maintenanceWarningText(window)).toMatch(
      /^Planned maintenance: the site will be unavailable from \d{1,2}(st|nd|rd|th) [A-Z][a-z]{2} 2026, \d{2}:\d{2} \S+ until \d{1,2}(st|nd|rd|th) [A-Z][a-z]{2} 2026, \d{2}:\d{2} \S+\.$/,
    );
    expect(maintenanceWarningText(window)).not.toMatch(/Fri|Sat/);
  });
  it('renders nothing outside the warning time', () => {
    setSession({
      maintenanceWindow: {
        warning_start: inMinutes(10),
        start: inMinutes(60),
        end: inMinutes(120),
      },
    });
    renderWithProviders(<MaintenanceBanner />);
    expect(screen.queryByTestId('maintenance-warning')).toBeNull();
  });
});
