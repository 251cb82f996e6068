import { Button, Group, type GroupProps, Stack, Title } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { createContext, type FormEvent, type ReactNode, useContext, useState } from 'react';
import { type ApiErrorBody, type ApiResult, request } from '../../api/client';
import { ErrorSummary, type SummaryError } from '../../components/form-kit';
import { notify } from '../../lib/notify';

/** A form's errors, one message per field. */
export type FieldErrors = Record<string, string>;

/** Operations' action on an activity: POST /api/ops/case-activities/{id}/{action}/. */
export const postActivityAction = (activityId: number, action: string, body: unknown) =>
  request<{ state: string }>('POST', `/api/ops/case-activities/${activityId}/${action}/`, { body });

/**
 * The server's field errors (`{field: [messages]}`), each field's messages joined; `prefix`
 * is taken off the keys (a body nested under `data.` or `provider_configuration.`).
 */
export function serverFieldErrors(body: ApiErrorBody, prefix?: RegExp): FieldErrors {
  const out: FieldErrors = {};
  for (const [key, value] of Object.entries(body)) {
    if (Array.isArray(value)) out[prefix ? key.replace(prefix, '') : key] = value.join(' ');
  }
  return out;
}

/**
 * A one-field form's server error: every message of every field as that field's error, or
 * 'An error has occurred' when the answer has none.
 */
export const serverErrorsAs =
  (field: string) =>
  (body: ApiErrorBody): FieldErrors => {
    const messages = Object.values(body).flatMap((v) => (Array.isArray(v) ? v : []));
    return { [field]: messages.join(' ') || 'An error has occurred' };
  };

/** The summary's lines: each error linked to its field's id, named by its label. */
export function summaryOf(
  errors: FieldErrors,
  fieldId: (field: string) => string,
  labels: Readonly<Record<string, string>>,
): SummaryError[] {
  return Object.entries(errors).map(([field, message]) => ({
    field: fieldId(field),
    message,
    label: labels[field] ?? field,
  }));
}

/**
 * Told after an operations form saved (the work queue's "Save and next", issue 29): the ops
 * detail page provides it to move on to the next activity of its list.
 */
export const OpsFormSavedContext = createContext<(() => void) | null>(null);

/**
 * The plumbing every operations form of an activity shares: its errors and the attempt that
 * refocuses the summary, the saving flag, and `save`, which posts, shows 'Successfully updated
 * case activity' or 'Error updating case activity' with the server's field errors, and on
 * success refreshes the case (every query).
 */
export function useOpsForm() {
  const client = useQueryClient();
  const onSaved = useContext(OpsFormSavedContext);
  const [errors, setErrors] = useState<FieldErrors>({});
  const [attempt, setAttempt] = useState(0);
  const [saving, setSaving] = useState(false);

  /** Shows errors without saving (the form's own validation failed). */
  const refuse = (next: FieldErrors) => {
    setErrors(next);
    setAttempt((n) => n + 1);
  };

  const save = async <T,>(
    send: () => Promise<ApiResult<T>>,
    errorsOf: (body: ApiErrorBody) => FieldErrors = serverFieldErrors,
  ): Promise<ApiResult<T>> => {
    setSaving(true);
    const r = await send();
    setSaving(false);
    if (!r.ok) {
      refuse(errorsOf(r.data));
      notify.error('Error updating case activity');
      return r;
    }
    setErrors({});
    notify.success('Successfully updated case activity');
    await client.invalidateQueries();
    onSaved?.();
    return r;
  };

  /**
   * A one-field form's submit: the field's check failed, its first message (or `fallback`) on
   * `field`; else `send` posts the checked data and every server message lands on `field`.
   */
  const submitField = async <T,>(
    field: string,
    check: FieldCheck<T>,
    fallback: string,
    send: (data: T) => Promise<ApiResult<unknown>>,
  ): Promise<void> => {
    if (!check.success) {
      refuse({ [field]: check.error.issues[0]?.message ?? fallback });
      return;
    }
    const { data } = check;
    await save(() => send(data), serverErrorsAs(field));
  };

  return { errors, attempt, saving, refuse, save, submitField };
}

/** A schema's safeParse result, as submitField reads it. */
export type FieldCheck<T> =
  | { success: true; data: T }
  | { success: false; error: { issues: readonly { message: string }[] } };

export interface OpsFormFrameProps {
  /** The id of the form's heading (its accessible name). */
  titleId: string;
  /** The heading; absent where the heading is outside the form (an accordion's control). */
  title?: ReactNode;
  testId: string;
  summary: SummaryError[];
  /** The state useOpsForm keeps: the attempt refocuses the summary; saving shows on the button. */
  form: { attempt: number; saving: boolean };
  submitLabel: ReactNode;
  /** The submit button's height (44 for a touch target), Mantine's default when absent. */
  submitHeight?: number;
  submitJustify?: GroupProps['justify'];
  onSubmit: () => void | Promise<void>;
  children: ReactNode;
}

/** An operations form's frame: heading, error summary, its fields, the submit button. */
export function OpsFormFrame({
  titleId,
  title,
  testId,
  summary,
  form,
  submitLabel,
  submitHeight,
  submitJustify,
  onSubmit,
  children,
}: OpsFormFrameProps) {
  const submit = (event: FormEvent) => {
    event.preventDefault();
    void onSubmit();
  };
  return (
    <form onSubmit={submit} noValidate aria-labelledby={titleId} data-testid={testId}>
      <Stack gap="sm">
        {title !== undefined && (
          <Title order={3} size="h5" id={titleId}>
            {title}
          </Title>
        )}
        <ErrorSummary errors={summary} focusKey={form.attempt} />
        {children}
        <Group justify={submitJustify}>
          <Button type="submit" h={submitHeight} loading={form.saving}>
            {submitLabel}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
