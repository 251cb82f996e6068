import { describe, expect, it } from 'vitest';
import { LIMITS, MAINTENANCE_TEXT, maintenanceStatus, SESSION_STATUSES } from './session.js';

describe('maintenance', () => {
  const window = {
    start: '2024-05-01T10:00:00Z',
    end: '2024-05-01T12:00:00Z',
    warning_start: '2024-05-01T08:00:00Z',
  };
  it.each([
    ['2024-05-01T07:59:59Z', 'up'],
    ['2024-05-01T08:00:00Z', 'warning'],
    ['2024-05-01T09:59:59Z', 'warning'],
    ['2024-05-01T10:00:00Z', 'down'],
    ['2024-05-01T11:59:59Z', 'down'],
    ['2024-05-01T12:00:00Z', 'up'],
  ])('%s → %s', (now, expected) => {
    expect(maintenanceStatus(window, new Date(now))).toBe(expected);
  });

  it('is up without a window and warns only with a warning start', () => {
    expect(maintenanceStatus(null, new Date())).toBe('up');
    expect(
      maintenanceStatus({ ...window, warning_start: null }, new Date('2024-05-01T09:00:00Z')),
    ).toBe('up');
    expect(MAINTENANCE_TEXT).toMatch(/^The site is currently down for maintenance\./);
  });

  it('keeps the constants', () => {
    expect(SESSION_STATUSES).toContain('persisted-locally');
    expect(LIMITS.sessionPollSeconds).toBe(5);
    expect(LIMITS.activityTypesPageSize).toBe(100);
  });
});
