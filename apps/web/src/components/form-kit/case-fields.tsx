import {
  COUNTRIES,
  countryName,
  DBS_ALTERNATIVE_WARNING,
  type DbsCheckKind,
  needsCountryAlternative,
  needsDbsAlternative,
  sortedCountries,
} from '@kestrel/domain';
import { Alert, NativeSelect, Stack, Text, TextInput } from '@mantine/core';
import type { ReactNode } from 'react';
import { type FieldValues, type Path, type UseFormReturn, useWatch } from 'react-hook-form';

/** Why a record cannot be changed: it came from the identity check. */
export const LOCKED_REASON =
  'Verified by the online identity check (IDSP): this cannot be changed or deleted.';

export function LockedNotice({ children = LOCKED_REASON }: { children?: ReactNode }) {
  return (
    <Alert color="gray" variant="light" data-testid="locked-notice">
      <Text size="sm">{children}</Text>
    </Alert>
  );
}

/**
 * A text field with its '(for DBS)' alternative: when the value fails the criminal-record
 * service's character rules, a warning shows beside it and the alternative is asked for.
 */
export function DbsTextField<V extends FieldValues>({
  form,
  name,
  label,
  kind,
  required = false,
  readOnly = false,
  altReadOnly = readOnly,
  transform,
}: {
  form: UseFormReturn<V>;
  name: Path<V>;
  label: string;
  kind?: DbsCheckKind;
  required?: boolean;
  readOnly?: boolean;
  /** Whether the '(for DBS)' value is read-only (by default as the field: a value locked by the
   * identity check still needs its alternative typed in). */
  altReadOnly?: boolean;
  transform?: (v: string) => string;
}) {
  const value = useWatch({ control: form.control, name });
  const errors = form.formState.errors;
  const altName = `${name}_dbs` as Path<V>;
  const needsAlt = kind !== undefined && needsDbsAlternative(String(value ?? ''), kind);
  const error = (n: string) => {
    const e = errors[n];
    return e && typeof e.message === 'string' ? e.message : undefined;
  };
  const onChange = transform
    ? {
        onChange: (e: React.ChangeEvent<HTMLInputElement>) =>
          form.setValue(name, transform(e.currentTarget.value) as V[Path<V>], {
            shouldDirty: true,
            shouldValidate: true,
          }),
      }
    : {};
  return (
    <Stack gap={6}>
      <TextInput
        label={label}
        required={required}
        readOnly={readOnly}
        error={error(name)}
        {...form.register(name)}
        {...onChange}
      />
      {needsAlt && (
        <>
          <DbsWarning />
          <TextInput
            label={`${label} (for DBS)`}
            required
            readOnly={altReadOnly}
            error={error(altName)}
            {...form.register(altName)}
          />
        </>
      )}
    </Stack>
  );
}

/** Beside a field whose value the criminal-record service cannot take. */
function DbsWarning() {
  return (
    <Alert color="orange" variant="light" p="xs" data-testid="dbs-warning" role="note">
      <Text size="sm" c="var(--mantine-color-orange-light-color)">
        {DBS_ALTERNATIVE_WARNING}
      </Text>
    </Alert>
  );
}

const countryOptions = () => [
  { value: '', label: 'Choose a country' },
  ...sortedCountries().map((c) => ({ value: c.code, label: c.name })),
];

/**
 * A country picker (GBR first, deprecated hidden); with `dbs`, the '(for DBS)' alternative is
 * asked for when the service does not support the country at standard or enhanced level.
 */
export function CountryField<V extends FieldValues>({
  form,
  name,
  label,
  dbs = false,
  disabled = false,
  nationality = false,
}: {
  form: UseFormReturn<V>;
  name: Path<V>;
  label: string;
  dbs?: boolean;
  disabled?: boolean;
  nationality?: boolean;
}) {
  const value = useWatch({ control: form.control, name });
  const errors = form.formState.errors;
  const code = String(value ?? '');
  const needsAlt = dbs && needsCountryAlternative(code);
  const altName = `${name}_dbs` as Path<V>;
  const data = nationality
    ? [
        { value: '', label: 'Choose a nationality' },
        ...sortedCountries().map((c) => ({ value: c.code, label: c.nationality || c.name })),
      ]
    : countryOptions();
  // A deprecated country already saved stays shown.
  if (code && !data.some((o) => o.value === code) && code in COUNTRIES) {
    data.push({ value: code, label: countryName(code) });
  }
  const message = (n: string) => {
    const e = errors[n];
    return e && typeof e.message === 'string' ? e.message : undefined;
  };
  return (
    <Stack gap={6}>
      <NativeSelect
        size="md"
        label={label}
        required
        disabled={disabled}
        data={data}
        error={message(name)}
        {...form.register(name)}
      />
      {needsAlt && (
        <>
          <DbsWarning />
          <NativeSelect
            size="md"
            label={`${label} (for DBS)`}
            required
            disabled={disabled}
            data={countryOptions()}
            error={message(altName)}
            {...form.register(altName)}
          />
        </>
      )}
    </Stack>
  );
}
