import { NumberInput, type NumberInputProps } from '@mantine/core';
import { type FieldValues, useController } from 'react-hook-form';
import { type Bound, useFieldLabel } from '../../../components/form-kit';

type Omitted = 'name' | 'value' | 'defaultValue' | 'onChange' | 'error' | 'label';

/** A whole number ('' while empty, so the rules say what is missing). */
export function WholeNumberField<T extends FieldValues, O>({
  control,
  name,
  label,
  ...props
}: Bound<T, O> & Omit<NumberInputProps, Omitted> & { label: string }) {
  const { field, fieldState } = useController({ control, name });
  useFieldLabel(name, label);
  return (
    <NumberInput
      size="md"
      allowDecimal={false}
      allowNegative={false}
      {...props}
      id={name}
      ref={field.ref}
      name={field.name}
      label={label}
      value={typeof field.value === 'number' ? field.value : ''}
      onChange={(v) => field.onChange(typeof v === 'number' ? v : undefined)}
      onBlur={field.onBlur}
      error={fieldState.error?.message}
    />
  );
}

/** Pence as pounds typed ('150.00' → 15000); the form holds whole pence, as the API does. */
export function poundsToPence(value: number | string): number | undefined {
  const n = typeof value === 'number' ? value : Number.parseFloat(value);
  return Number.isFinite(n) ? Math.round(n * 100) : undefined;
}

/** A fee: typed in pounds (2 decimals, '£' before it), held in pence. */
export function PoundsField<T extends FieldValues, O>({
  control,
  name,
  label,
  ...props
}: Bound<T, O> & Omit<NumberInputProps, Omitted> & { label: string }) {
  const { field, fieldState } = useController({ control, name });
  useFieldLabel(name, label);
  return (
    <NumberInput
      size="md"
      prefix="£"
      decimalScale={2}
      fixedDecimalScale
      allowNegative={false}
      thousandSeparator=","
      {...props}
      id={name}
      ref={field.ref}
      name={field.name}
      label={label}
      value={typeof field.value === 'number' ? field.value / 100 : ''}
      onChange={(v) => field.onChange(v === '' ? undefined : poundsToPence(v))}
      onBlur={field.onBlur}
      error={fieldState.error?.message}
    />
  );
}
