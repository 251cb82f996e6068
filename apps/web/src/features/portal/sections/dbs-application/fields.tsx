// Mantine CSS the shared layout does not load (this chunk's own).
import '@mantine/core/styles/RadioCard.css';
import '@mantine/core/styles/RadioIndicator.css';
import '@mantine/core/styles/Fieldset.css';
import { DBS_ALTERNATIVE_WARNING } from '@kestrel/domain';
import { Alert, Box, Checkbox, Group, Radio, Stack, Text, TextInput } from '@mantine/core';
import type { ReactNode } from 'react';
import {
  Controller,
  type FieldErrors,
  type FieldValues,
  type Path,
  type UseFormReturn,
} from 'react-hook-form';
import type { SummaryError } from '../../section-shell';
import classes from './touch.module.css';

/**
 * Form parts the criminal-record, update service, driver data and right-to-work sections share:
 * choices as large cards (44 px and more), a confirmation box, a read-only name with its
 * '(for DBS)' alternative, and the error summary's lines.
 */

export const messageOf = <V extends FieldValues>(errors: FieldErrors<V>, name: string) => {
  const e = errors[name];
  return e && typeof e.message === 'string' ? e.message : undefined;
};

/** The summary lines of the form's errors, in the order of `labels` ('Label: message'). */
export function summaryOf<V extends FieldValues>(
  errors: FieldErrors<V>,
  labels: Readonly<Record<string, string>>,
  extra: SummaryError[] = [],
): SummaryError[] {
  const out: SummaryError[] = [];
  for (const [field, label] of Object.entries(labels)) {
    const message = messageOf(errors, field);
    if (message) out.push({ field, message: `${label}: ${message}` });
  }
  return [...out, ...extra];
}

/**
 * One choice among cards (a radio group); the group is the field `name` for the summary. Each
 * card is named by what it shows (its label, then its hint: WCAG 2.5.3, label in name).
 */
export function ChoiceCards<V extends FieldValues>({
  form,
  name,
  label,
  options,
  disabled = false,
  description,
}: {
  form: UseFormReturn<V>;
  name: Path<V>;
  label: string;
  options: readonly { value: string; label: string; hint?: ReactNode }[];
  disabled?: boolean;
  description?: ReactNode;
}) {
  return (
    <Controller
      control={form.control}
      name={name}
      render={({ field, fieldState }) => (
        <Radio.Group
          data-field={name}
          label={<Legend>{label}</Legend>}
          description={description}
          withAsterisk
          value={typeof field.value === 'string' ? field.value : ''}
          onChange={(v) => {
            field.onChange(v);
            field.onBlur();
          }}
          error={fieldState.error?.message}
        >
          <Stack gap="xs" mt="xs">
            {options.map((o) => (
              <Radio.Card
                key={o.value}
                value={o.value}
                disabled={disabled}
                p="md"
                radius="md"
                mih={44}
                data-testid={`choice-${o.value}`}
              >
                <Group wrap="nowrap" align="flex-start" gap="sm">
                  <Radio.Indicator />
                  <Stack gap={2}>
                    <Text fw={600}>{o.label}</Text>
                    {o.hint && (
                      <Text size="sm" c="dimmed">
                        {o.hint}
                      </Text>
                    )}
                  </Stack>
                </Group>
              </Radio.Card>
            ))}
          </Stack>
        </Radio.Group>
      )}
    />
  );
}

/** A box the person ticks to confirm ('Please confirm' until ticked). */
export function ConfirmBox<V extends FieldValues>({
  form,
  name,
  label,
  disabled = false,
}: {
  form: UseFormReturn<V>;
  name: Path<V>;
  label: ReactNode;
  disabled?: boolean;
}) {
  return (
    <Controller
      control={form.control}
      name={name}
      render={({ field, fieldState }) => (
        <Checkbox
          id={name}
          size="md"
          checked={field.value === true}
          onChange={(e) => {
            field.onChange(e.currentTarget.checked);
            field.onBlur();
          }}
          disabled={disabled}
          label={label}
          error={fieldState.error?.message}
          styles={{ body: { minHeight: 44, alignItems: 'center' } }}
        />
      )}
    />
  );
}

/**
 * A name as the person gave it (read-only here: it is changed in Basic details) and, when the
 * criminal-record service cannot take it, its '(for DBS)' value.
 */
export function NameForDbs<V extends FieldValues>({
  form,
  name,
  label,
  value,
  needsAlternative,
  readOnly,
}: {
  form: UseFormReturn<V>;
  name: Path<V>;
  label: string;
  value: string;
  needsAlternative: boolean;
  readOnly: boolean;
}) {
  const alt = `${name}_dbs` as Path<V>;
  return (
    <Stack gap={6}>
      <TextInput label={label} value={value} readOnly size="md" />
      {needsAlternative && (
        <>
          <Alert color="orange" variant="light" p="xs" role="note" data-testid="dbs-warning">
            <Text size="sm" c="var(--mantine-color-orange-light-color)">
              {DBS_ALTERNATIVE_WARNING}
            </Text>
          </Alert>
          <TextInput
            id={alt}
            size="md"
            label={`${label} (for DBS)`}
            withAsterisk
            readOnly={readOnly}
            error={messageOf(form.formState.errors, alt)}
            {...form.register(alt)}
          />
        </>
      )}
    </Stack>
  );
}

/** A fieldset's legend as a heading-sized label. */
export function Legend({ children }: { children: ReactNode }) {
  return (
    <Text component="span" fw={700} size="lg">
      {children}
    </Text>
  );
}

/** Every input, select and button inside is at least 44 px high (touch targets, phone first). */
export function TouchTargets({ children }: { children: ReactNode }) {
  return <Box className={classes.touch}>{children}</Box>;
}

/** Wraps a field without an element of its own id (a date selector), for the summary's link. */
export function FieldAnchor({ name, children }: { name: string; children: ReactNode }) {
  return <Box data-field={name}>{children}</Box>;
}
