import { useState } from 'react';
import { type DefaultValues, type FieldValues, useForm } from 'react-hook-form';
import type { z } from 'zod';
import { SectionFailure } from '../../api/case-data';
import { applyServerFieldErrors, parsePayload, schemaResolver } from '../../components/form-kit';
import { useConsents } from './section-parts';

/**
 * The form of one row of a list section (an other name, an address): new (POST with `case`)
 * or existing (PATCH). A new row counts as a change, so its consents show at once.
 */
export function useRowForm<V extends FieldValues>({
  schema,
  initial,
  id,
  save,
  onSaved,
  onFailed,
  omit = [],
}: {
  schema: () => z.ZodType;
  initial: V;
  id?: number;
  save: {
    mutateAsync: (v: { id?: number; values: object }) => Promise<unknown>;
    isPending: boolean;
  };
  onSaved: () => void;
  onFailed: (failed: boolean) => void;
  omit?: readonly string[];
}) {
  const form = useForm<V>({
    resolver: schemaResolver<V>(schema),
    defaultValues: initial as DefaultValues<V>,
    mode: 'all',
  });
  const consents = useConsents();
  const [failed, setFailed] = useState(false);
  const submit = form.handleSubmit(async (values) => {
    setFailed(false);
    onFailed(false);
    try {
      const payload: Record<string, unknown> = {
        ...parsePayload(schema(), values, Object.keys(values)),
      };
      for (const key of omit) delete payload[key];
      await save.mutateAsync({ id, values: payload });
      onSaved();
    } catch (error) {
      setFailed(true);
      onFailed(true);
      if (error instanceof SectionFailure && error.status === 400)
        applyServerFieldErrors(form, error.body);
    }
  });
  const { isDirty, isValid } = form.formState;
  const changed = isDirty || id === undefined;
  return {
    form,
    consents,
    submit,
    failed,
    changed,
    saving: save.isPending,
    canSave: changed && isValid && consents.given,
  };
}
