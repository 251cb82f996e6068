import {
  dateSelectorDays,
  dateSelectorDefaults,
  dateSelectorMonths,
  dateSelectorYears,
  MESSAGES,
} from '@kestrel/domain';
import { Box, Input, NativeSelect } from '@mantine/core';
import { useId, useState } from 'react';
import classes from './date-selector.module.css';

const MONTHS = [
  'January',
  'February',
  'March',
  'April',
  'May',
  'June',
  'July',
  'August',
  'September',
  'October',
  'November',
  'December',
];

interface Parts {
  year: number | null;
  month: number | null;
  day: number | null;
}

function split(value: string | null | undefined): Parts {
  const m = value ? /^(\d{4})-(\d{2})-(\d{2})$/.exec(value) : null;
  return m
    ? { year: Number(m[1]), month: Number(m[2]), day: Number(m[3]) }
    : { year: null, month: null, day: null };
}
const pad = (n: number) => String(n).padStart(2, '0');
const partClasses = { root: classes.part, input: classes.select };
const today = () => new Date().toISOString().slice(0, 10);

export interface DateSelectorProps {
  label: string;
  /** 'YYYY-MM-DD' or null while incomplete. */
  value: string | null | undefined;
  onChange: (value: string | null) => void;
  /** Inclusive bounds, 'YYYY-MM-DD'; default 100 years back to today (spec point 9). */
  min?: string;
  max?: string;
  error?: string;
  required?: boolean;
  description?: string;
}

/**
 * The shared date selector of spec point 5: year, month and day all required; the month and day
 * lists follow the chosen year and month and the min/max dates.
 */
export function DateSelector({
  label,
  value,
  onChange,
  min,
  max,
  error,
  required = true,
  description,
}: DateSelectorProps) {
  const id = useId();
  const defaults = dateSelectorDefaults(today());
  const range = { min: min ?? defaults.min, max: max ?? defaults.max };
  const [parts, setParts] = useState<Parts>(() => split(value));
  const years = dateSelectorYears(range, today());
  const months = parts.year ? dateSelectorMonths({ ...range, year: parts.year }) : [];
  const days =
    parts.year && parts.month
      ? dateSelectorDays({ ...range, year: parts.year, month: parts.month })
      : [];

  const update = (next: Parts) => {
    // Drop choices the new year or month no longer allows.
    const monthOk =
      next.year &&
      next.month &&
      dateSelectorMonths({ ...range, year: next.year }).includes(next.month);
    const month = monthOk ? next.month : null;
    const dayOk =
      next.year &&
      month &&
      next.day &&
      dateSelectorDays({ ...range, year: next.year, month }).includes(next.day);
    const fixed = { year: next.year, month, day: dayOk ? next.day : null };
    setParts(fixed);
    onChange(
      fixed.year && fixed.month && fixed.day
        ? `${fixed.year}-${pad(fixed.month)}-${pad(fixed.day)}`
        : null,
    );
  };
  const num = (v: string) => (v ? Number(v) : null);
  const missing = (part: keyof Parts) => (error && !parts[part] ? MESSAGES.required : undefined);

  return (
    <Input.Wrapper
      label={label}
      required={required}
      description={description}
      error={error}
      id={id}
      labelElement="div"
      data-testid="date-selector"
    >
      <Box className={classes.parts} role="group" aria-labelledby={`${id}-label`} mt={4}>
        <NativeSelect
          classNames={partClasses}
          aria-label={`${label}: year`}
          value={parts.year ? String(parts.year) : ''}
          onChange={(e) => update({ ...parts, year: num(e.currentTarget.value) })}
          data={[
            { value: '', label: 'Year' },
            ...years.map((y) => ({ value: String(y), label: String(y) })),
          ]}
          error={Boolean(missing('year'))}
          data-testid="date-year"
        />
        <NativeSelect
          classNames={partClasses}
          aria-label={`${label}: month`}
          value={parts.month ? String(parts.month) : ''}
          onChange={(e) => update({ ...parts, month: num(e.currentTarget.value) })}
          data={[
            { value: '', label: 'Month' },
            ...months.map((m) => ({ value: String(m), label: MONTHS[m - 1] ?? String(m) })),
          ]}
          error={Boolean(missing('month'))}
          disabled={months.length === 0}
          data-testid="date-month"
        />
        <NativeSelect
          classNames={partClasses}
          aria-label={`${label}: day`}
          value={parts.day ? String(parts.day) : ''}
          onChange={(e) => update({ ...parts, day: num(e.currentTarget.value) })}
          data={[
            { value: '', label: 'Day' },
            ...days.map((d) => ({ value: String(d), label: String(d) })),
          ]}
          error={Boolean(missing('day'))}
          disabled={days.length === 0}
          data-testid="date-day"
        />
      </Box>
    </Input.Wrapper>
  );
}
