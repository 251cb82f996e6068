import { formatDate } from '@kestrel/domain';
import { TextInput } from '@mantine/core';
import type { Control, FieldValues, Path } from 'react-hook-form';
import { DateField } from '../../components/form-kit';

/** A date: the selector while editable, 'do MMM y' text while locked or read-only. */
export function DocDate<V extends FieldValues>({
  control,
  name,
  label,
  value,
  readOnly,
  min,
  max,
  required = false,
  resetKey,
}: {
  control: Control<V>;
  name: Path<V>;
  label: string;
  value: string;
  readOnly: boolean;
  min?: string;
  max?: string;
  required?: boolean;
  resetKey: number;
}) {
  return readOnly ? (
    <TextInput label={label} readOnly value={formatDate(value)} />
  ) : (
    <DateField
      control={control}
      name={name}
      label={label}
      min={min}
      max={max}
      required={required}
      resetKey={resetKey}
    />
  );
}
