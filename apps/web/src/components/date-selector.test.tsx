import { fireEvent, screen, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { renderWithProviders } from '../test/render';
import { DateSelector } from './date-selector';

const options = (testId: string) =>
  within(screen.getByTestId(testId))
    .getAllByRole('option')
    .map((o) => o.getAttribute('value'))
    .filter(Boolean);
const pick = (testId: string, value: string) =>
  fireEvent.change(screen.getByTestId(testId), { target: { value } });

describe('DateSelector', () => {
  it('follows the month for the day list (leap years included)', () => {
    const onChange = vi.fn();
    renderWithProviders(
      <DateSelector
        label="Date of birth"
        value={null}
        onChange={onChange}
        min="1900-01-01"
        max="2030-12-31"
      />,
    );
    pick('date-year', '2024');
    pick('date-month', '2');
    expect(options('date-day')).toHaveLength(29);
    pick('date-year', '2023');
    expect(options('date-day')).toHaveLength(28);
    pick('date-month', '4');
    expect(options('date-day')).toHaveLength(30);
    pick('date-day', '30');
    expect(onChange).toHaveBeenLastCalledWith('2023-04-30');
  });

  it('limits years, months and days to the min and max dates', () => {
    renderWithProviders(
      <DateSelector
        label="Expiry"
        value={null}
        onChange={() => {}}
        min="2026-03-10"
        max="2027-02-05"
      />,
    );
    expect([...options('date-year')].sort()).toEqual(['2026', '2027']);
    pick('date-year', '2026');
    expect(options('date-month')).toEqual(['3', '4', '5', '6', '7', '8', '9', '10', '11', '12']);
    pick('date-month', '3');
    expect(options('date-day')[0]).toBe('10');
    pick('date-year', '2027');
    expect(options('date-month')).toEqual(['1', '2']);
  });

  it('gives null until year, month and day are all chosen', () => {
    const onChange = vi.fn();
    renderWithProviders(
      <DateSelector
        label="Date"
        value={null}
        onChange={onChange}
        min="2000-01-01"
        max="2001-12-31"
      />,
    );
    pick('date-year', '2000');
    pick('date-month', '1');
    expect(onChange).toHaveBeenLastCalledWith(null);
    pick('date-day', '31');
    expect(onChange).toHaveBeenLastCalledWith('2000-01-31');
    pick('date-month', '2');
    expect(onChange).toHaveBeenLastCalledWith(null);
  });

  it('lists expiry years from this year forward, not from 100 years ahead', () => {
    const now = new Date();
    const iso = (d: Date) => d.toISOString().slice(0, 10);
    const tomorrow = new Date(now.getTime() + 86_400_000);
    const ahead = new Date(now);
    ahead.setUTCFullYear(now.getUTCFullYear() + 100);
    renderWithProviders(
      <DateSelector
        label="Expiry date"
        value={null}
        onChange={() => {}}
        min={iso(tomorrow)}
        max={iso(ahead)}
      />,
    );
    const first = tomorrow.getUTCFullYear();
    expect(options('date-year').slice(0, 3)).toEqual([first, first + 1, first + 2].map(String));
    expect(options('date-year').at(-1)).toBe(String(now.getUTCFullYear() + 100));
  });

  it('defaults to 100 years back to today', () => {
    renderWithProviders(<DateSelector label="Date" value={null} onChange={() => {}} />);
    const year = new Date().getUTCFullYear();
    const years = options('date-year');
    expect(years[0]).toBe(String(year));
    expect(years.at(-1)).toBe(String(year - 100));
  });
});
