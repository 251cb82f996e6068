import { describe, expect, it } from 'vitest';
import { fromLocalInput, showInstant, toLocalInput } from './api';

// The web tests run in UTC (package.json): local times are UTC here.
describe('maintenance window times', () => {
  it('turns an instant into a datetime-local value and back', () => {
    expect(toLocalInput('2026-11-28T09:30:00.000Z')).toBe('2026-11-28T09:30');
    expect(fromLocalInput('2026-11-28T09:30')).toBe('2026-11-28T09:30:00.000Z');
  });

  it('gives blank for a blank or broken value (the API then names the field)', () => {
    expect(fromLocalInput('')).toBe('');
    expect(fromLocalInput('not a date')).toBe('');
  });

  it('shows an instant with its day, month, year and time', () => {
    expect(showInstant('2026-11-28T09:30:00.000Z')).toBe('28 Nov 2026, 09:30');
  });
});
