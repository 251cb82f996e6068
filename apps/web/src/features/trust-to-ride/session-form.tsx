import { trustToRideSessionIn } from '@kestrel/domain';
import {
  Button,
  Group,
  NativeSelect,
  NumberInput,
  SimpleGrid,
  Stack,
  TextInput,
} from '@mantine/core';
import { type FormEvent, useState } from 'react';
import { ErrorSummary, type SummaryError } from '../../components/form-kit';
import { fieldMessages } from './trust-to-ride-api';

export interface SessionValues {
  customer: string;
  date: string;
  time: string;
  place: string;
  capacity: number | string;
}

const LABELS: Record<string, string> = {
  customer: 'Customer',
  date: 'Date',
  time: 'Time',
  place: 'Place',
  capacity: 'Capacity',
  non_field_errors: 'Session',
};

/**
 * A session's date, time, place and capacity (and, when adding, its customer), checked with the
 * domain's schema before it is sent; the server's field errors shown the same way.
 */
export function SessionForm({
  initial,
  customers,
  submitLabel,
  onSubmit,
  onCancel,
}: {
  initial: SessionValues;
  /** The customers to choose from when adding; absent when editing. */
  customers?: { value: string; label: string }[];
  submitLabel: string;
  onSubmit: (v: {
    customer: number;
    date: string;
    time: string;
    place: string;
    capacity: number;
  }) => Promise<{ ok: true } | { ok: false; data: Record<string, unknown> }>;
  onCancel: () => void;
}) {
  const [v, setV] = useState(initial);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [attempt, setAttempt] = useState(0);
  const [saving, setSaving] = useState(false);
  const id = (f: string) => `session-${f}`;
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const input = {
      customer: Number(v.customer) || 0,
      date: v.date,
      time: v.time,
      place: v.place,
      capacity: typeof v.capacity === 'number' ? v.capacity : Number(v.capacity) || 0,
    };
    const check = trustToRideSessionIn.safeParse({
      ...input,
      customer: customers ? input.customer || undefined : 1,
      date: input.date || undefined,
      time: input.time || undefined,
      capacity: v.capacity === '' ? undefined : input.capacity,
    });
    if (!check.success) {
      const found: Record<string, string> = {};
      for (const i of check.error.issues) {
        const k = String(i.path[0]);
        found[k] ??= i.message;
      }
      setErrors(found);
      setAttempt((n) => n + 1);
      return;
    }
    setSaving(true);
    const r = await onSubmit(input);
    setSaving(false);
    if (!r.ok) {
      setErrors(fieldMessages(r.data));
      setAttempt((n) => n + 1);
      return;
    }
    setErrors({});
  };
  const summary: SummaryError[] = Object.entries(errors).map(([f, message]) => ({
    field: id(f),
    message,
    label: LABELS[f] ?? f,
  }));
  const set = (k: keyof SessionValues) => (value: string | number) =>
    setV((o) => ({ ...o, [k]: value }));
  return (
    <form onSubmit={submit} noValidate data-testid="session-form">
      <Stack gap="sm">
        <ErrorSummary errors={summary} focusKey={attempt} />
        {customers && (
          <NativeSelect
            id={id('customer')}
            label="Customer"
            withAsterisk
            value={v.customer}
            onChange={(e) => set('customer')(e.currentTarget.value)}
            data={[{ value: '', label: 'Choose a customer' }, ...customers]}
            error={errors.customer}
          />
        )}
        <SimpleGrid cols={{ base: 1, xs: 2 }} spacing="sm">
          <TextInput
            id={id('date')}
            type="date"
            label="Date"
            withAsterisk
            value={v.date}
            onChange={(e) => set('date')(e.currentTarget.value)}
            error={errors.date}
          />
          <TextInput
            id={id('time')}
            type="time"
            label="Time"
            withAsterisk
            value={v.time}
            onChange={(e) => set('time')(e.currentTarget.value)}
            error={errors.time}
          />
        </SimpleGrid>
        <TextInput
          id={id('place')}
          label="Place"
          withAsterisk
          maxLength={200}
          value={v.place}
          onChange={(e) => set('place')(e.currentTarget.value)}
          error={errors.place}
        />
        <NumberInput
          id={id('capacity')}
          label="Capacity"
          withAsterisk
          min={1}
          max={500}
          allowDecimal={false}
          value={v.capacity}
          onChange={set('capacity')}
          error={errors.capacity}
        />
        <Group>
          <Button type="submit" loading={saving}>
            {submitLabel}
          </Button>
          <Button variant="default" onClick={onCancel}>
            Cancel
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
