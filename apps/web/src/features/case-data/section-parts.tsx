import {
  COUNTRIES,
  countryName,
  DBS_ALTERNATIVE_WARNING,
  type DbsCheckKind,
  MESSAGES,
  needsCountryAlternative,
  needsDbsAlternative,
  sortedCountries,
} from '@kestrel/domain';
import {
  Alert,
  Button,
  Checkbox,
  Group,
  NativeSelect,
  Stack,
  Text,
  TextInput,
} from '@mantine/core';
import { type ReactNode, useCallback, useState } from 'react';
import {
  type Control,
  Controller,
  type FieldErrors,
  type FieldValues,
  type Path,
  type Resolver,
  type UseFormReturn,
  useWatch,
} from 'react-hook-form';
import type { z } from 'zod';
import type { ApiErrorBody } from '../../api/client';
import { DateSelector } from '../../components/date-selector';

/**
 * A react-hook-form resolver from a domain (or contract) Zod schema: the form keeps what was
 * typed (strings), the schema says what is wrong with the same messages as the server. The
 * payload is the schema's output, taken at submit time (`parsePayload`).
 */
export function schemaResolver<V extends FieldValues>(
  schema: () => z.ZodType,
  extra?: (values: V) => Record<string, string>,
): Resolver<V> {
  return async (values) => {
    const result = schema().safeParse(values);
    const messages: Record<string, string> = {};
    if (!result.success) {
      for (const issue of result.error.issues) {
        const key = issue.path.map(String).join('.');
        if (key && !(key in messages)) messages[key] = issue.message;
      }
    }
    for (const [key, message] of Object.entries(extra?.(values) ?? {})) {
      if (!(key in messages)) messages[key] = message;
    }
    const keys = Object.keys(messages);
    if (keys.length === 0) return { values, errors: {} };
    const errors: Record<string, { type: string; message: string }> = {};
    for (const key of keys) errors[key] = { type: 'validation', message: messages[key] ?? '' };
    return { values: {}, errors: errors as FieldErrors<V> };
  };
}

/**
 * The schema's output for the API, with blank optional fields sent as null (a PUT clears them).
 */
export function parsePayload(schema: z.ZodType, values: object, keys: readonly string[]): object {
  const parsed: unknown = schema.parse(values);
  const out: Record<string, unknown> =
    typeof parsed === 'object' && parsed !== null ? { ...parsed } : {};
  for (const key of keys) if (out[key] === undefined) out[key] = null;
  return out;
}

/** Puts a 400's `{field: [messages]}` on the form's fields. */
export function applyFieldErrors<V extends FieldValues>(
  form: UseFormReturn<V>,
  body: ApiErrorBody,
): void {
  const fields = Object.keys(form.getValues());
  for (const [key, value] of Object.entries(body)) {
    const messages = Array.isArray(value) ? value.filter((m) => typeof m === 'string') : [];
    if (fields.includes(key) && messages.length) {
      form.setError(key as Path<V>, { type: 'server', message: messages.join(' ') });
    }
  }
}

/** Null and undefined as '' for the inputs. */
export const text = (value: string | null | undefined) => value ?? '';

/** The section's error state (point 8: no message text): a retry, and what was typed stays. */
export function SectionError({ onRetry, label }: { onRetry: () => void; label: string }) {
  return (
    <Alert
      color="red"
      variant="light"
      data-testid="section-error"
      role="alert"
      aria-label={`${label}: error`}
      styles={{ message: { display: 'flex', justifyContent: 'flex-end' } }}
    >
      <Button size="xs" variant="white" color="red" onClick={onRetry}>
        Retry
      </Button>
    </Alert>
  );
}

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

export const CONSENT_TEXTS = [
  'I confirm that the details entered are true and correct to the best of my knowledge.',
  'I confirm that the subject has agreed to these details being changed.',
] as const;

/** The two consent confirmations a change reveals: 'Please confirm' until each is ticked. */
export function useConsents() {
  const [ticked, setTicked] = useState<[boolean, boolean]>([false, false]);
  const reset = useCallback(() => setTicked([false, false]), []);
  return {
    ticked,
    given: ticked[0] && ticked[1],
    reset,
    set: (i: 0 | 1, value: boolean) => setTicked((t) => (i === 0 ? [value, t[1]] : [t[0], value])),
  };
}

export function Consents({ consents }: { consents: ReturnType<typeof useConsents> }) {
  return (
    <Stack gap="xs" data-testid="consents">
      {CONSENT_TEXTS.map((label, i) => {
        const index = i === 0 ? 0 : 1;
        return (
          <Checkbox
            key={label}
            label={label}
            checked={consents.ticked[index]}
            onChange={(e) => consents.set(index, e.currentTarget.checked)}
            error={consents.ticked[index] ? undefined : MESSAGES.pleaseConfirm}
          />
        );
      })}
    </Stack>
  );
}

/** The Save row: disabled while the section is invalid or the consents are not given. */
export function SaveRow({
  disabled,
  saving,
  children,
}: {
  disabled: boolean;
  saving: boolean;
  children?: ReactNode;
}) {
  return (
    <Group justify="flex-end" gap="sm">
      {children}
      <Button type="submit" disabled={disabled} loading={saving}>
        Save
      </Button>
    </Group>
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

/** A date held as 'YYYY-MM-DD' ('' while incomplete), picked with the shared date selector. */
export function DateField<V extends FieldValues>({
  control,
  name,
  label,
  min,
  max,
  required = true,
  disabled = false,
  resetKey,
}: {
  control: Control<V>;
  name: Path<V>;
  label: string;
  min?: string;
  max?: string;
  required?: boolean;
  disabled?: boolean;
  /** Changes when the form is reset, so the selector takes the new value. */
  resetKey?: number;
}) {
  return (
    <Controller
      control={control}
      name={name}
      render={({ field, fieldState }) =>
        disabled ? (
          <TextInput label={label} readOnly value={String(field.value ?? '')} />
        ) : (
          <DateSelector
            key={resetKey}
            label={label}
            value={typeof field.value === 'string' ? field.value : null}
            onChange={(v) => {
              field.onChange(v ?? '');
              field.onBlur();
            }}
            min={min}
            max={max}
            required={required}
            error={fieldState.error?.message}
          />
        )
      }
    />
  );
}
