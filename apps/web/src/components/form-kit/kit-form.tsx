import { zodResolver } from '@hookform/resolvers/zod';
import { Stack } from '@mantine/core';
import {
  createContext,
  type ReactNode,
  useCallback,
  useContext,
  useEffect,
  useMemo,
  useRef,
  useState,
} from 'react';
import { type DefaultValues, type FieldValues, type UseFormReturn, useForm } from 'react-hook-form';
import type { z } from 'zod';
import type { ApiResult } from '../../api/client';
import { ApiFailure } from '../../api/resource';
import { ErrorSummary, type SummaryError } from './error-summary';
import { summaryOfErrors } from './form-errors';
import { applyServerFieldErrors } from './server-errors';

/** The data of an ok result, else an ApiFailure (what `useKitForm` maps to fields). */
export function unwrap<T>(result: ApiResult<T>): T {
  if (result.ok) return result.data;
  throw new ApiFailure(result.status, result.data, null);
}

/** The labels of the kit's fields, by name, so the summary can say 'Label: message'. */
interface KitFormContextValue {
  setLabel: (name: string, label: string | null) => void;
}
const KitFormContext = createContext<KitFormContextValue | null>(null);

/** Called by the kit's fields: tells the enclosing KitForm (if any) the field's label. */
export function useFieldLabel(name: string, label: ReactNode): void {
  const ctx = useContext(KitFormContext);
  const text = typeof label === 'string' ? label : null;
  useEffect(() => {
    if (!ctx || !text) return;
    ctx.setLabel(name, text);
    return () => ctx.setLabel(name, null);
  }, [ctx, name, text]);
}

export interface KitFormState<T extends FieldValues, O extends FieldValues> {
  form: UseFormReturn<T, unknown, O>;
  /** The form element's submit handler. */
  onSubmit: (event?: { preventDefault?: () => void }) => Promise<void>;
  saving: boolean;
  /** Errors of the whole form (the 400's 'detail', fields the form lacks, a failed request). */
  formErrors: string[];
  /** Grows with every submit that ended in errors (the summary takes the focus again). */
  attempt: number;
}

/**
 * The kit's form: a Zod schema validates in the browser; `submit` saves (throw an ApiFailure,
 * or return `unwrap(result)`); a 400's field errors land on the matching fields and the rest
 * in the summary; any other failure is a form error with `failureText`.
 */
export function useKitForm<T extends FieldValues, O extends FieldValues, R>({
  schema,
  defaultValues,
  submit,
  onSaved,
  failureText = 'Something went wrong. Try again.',
}: {
  schema: z.ZodType<O, T>;
  defaultValues: DefaultValues<T>;
  submit: (values: O) => Promise<R>;
  onSaved?: (result: R) => void;
  failureText?: string;
}): KitFormState<T, O> {
  const form = useForm<T, unknown, O>({
    resolver: zodResolver(schema),
    defaultValues,
    mode: 'onTouched',
    // The summary takes the focus (and links to each field), not the first field in error.
    shouldFocusError: false,
  });
  const [saving, setSaving] = useState(false);
  const [formErrors, setFormErrors] = useState<string[]>([]);
  const [attempt, setAttempt] = useState(0);
  const failed = () => setAttempt((n) => n + 1);
  const handle = form.handleSubmit(async (values) => {
    setFormErrors([]);
    setSaving(true);
    try {
      const result = await submit(values);
      onSaved?.(result);
    } catch (error) {
      if (error instanceof ApiFailure && error.status === 400) {
        setFormErrors(applyServerFieldErrors(form, error.body));
      } else if (
        error instanceof ApiFailure &&
        error.message &&
        !error.message.startsWith('HTTP')
      ) {
        setFormErrors([error.message]);
      } else setFormErrors([failureText]);
      failed();
    } finally {
      setSaving(false);
    }
  }, failed);
  const onSubmit = async (event?: { preventDefault?: () => void }) => {
    event?.preventDefault?.();
    await handle();
  };
  return { form, onSubmit, saving, formErrors, attempt };
}

/**
 * The form element of a kit form: `noValidate`, the error summary at its top (after a submit:
 * the fields' errors, with their labels, then the form's), then the fields.
 */
export function KitForm<T extends FieldValues, O extends FieldValues>({
  kit,
  children,
  gap = 'md',
  'aria-label': ariaLabel,
}: {
  kit: KitFormState<T, O>;
  children: ReactNode;
  gap?: string;
  'aria-label'?: string;
}) {
  const labelsRef = useRef<Record<string, string>>({});
  const setLabel = useCallback((name: string, label: string | null) => {
    if (label) labelsRef.current[name] = label;
    else delete labelsRef.current[name];
  }, []);
  const ctx = useMemo(() => ({ setLabel }), [setLabel]);
  const { errors, submitCount } = kit.form.formState;
  const summary: SummaryError[] =
    submitCount > 0 || kit.formErrors.length > 0
      ? [
          ...summaryOfErrors(errors, labelsRef.current),
          ...kit.formErrors.map((message) => ({ message })),
        ]
      : [];
  return (
    <KitFormContext.Provider value={ctx}>
      <form
        noValidate
        aria-label={ariaLabel}
        onSubmit={(event) => {
          void kit.onSubmit(event);
        }}
      >
        <Stack gap={gap}>
          <ErrorSummary errors={summary} focusKey={kit.attempt} />
          {children}
        </Stack>
      </form>
    </KitFormContext.Provider>
  );
}
