import { useQuery } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { type DefaultValues, type FieldValues, useForm } from 'react-hook-form';
import type { z } from 'zod';
import {
  type CaseDataAudience,
  type CaseRecord,
  SectionFailure,
  useSaveCaseRecord,
} from '../../api/case-data';
import { applyServerFieldErrors, parsePayload, schemaResolver } from '../../components/form-kit';
import { useConsents } from './section-parts';

/**
 * One record section (basic details, birth details, passport, licence): loaded and saved on its
 * own. 404 means not created yet (new, POST with `case`); after the 201 it is existing (PUT).
 * A failed load or save sets the error state; the form keeps what was typed.
 */
export function useRecordSection<T, V extends FieldValues>({
  resource,
  caseId,
  audience,
  schema,
  toForm,
  omit = [],
}: {
  resource: CaseRecord<T>;
  caseId: number | string;
  audience: CaseDataAudience;
  schema: () => z.ZodType;
  toForm: (record: T | null) => V;
  /** Form fields never sent (read-only ones, such as the subject's email). */
  omit?: readonly string[];
}) {
  const query = useQuery(resource.options(caseId, audience));
  // The schema may read other data (the licence holder): always the latest one.
  const schemaRef = useRef(schema);
  schemaRef.current = schema;
  const form = useForm<V>({
    resolver: schemaResolver<V>(() => schemaRef.current()),
    defaultValues: toForm(null) as DefaultValues<V>,
    mode: 'all',
  });
  const consents = useConsents();
  const resetConsents = consents.reset;
  const save = useSaveCaseRecord(resource, caseId, audience);
  const [saveFailed, setSaveFailed] = useState(false);
  const [resetKey, setResetKey] = useState(0);
  const record = query.data;
  const toFormRef = useRef(toForm);
  toFormRef.current = toForm;

  // A (re)load puts the record in the form.
  useEffect(() => {
    if (record === undefined) return;
    form.reset(toFormRef.current(record));
    setResetKey((k) => k + 1);
    resetConsents();
  }, [record, form, resetConsents]);

  const submit = form.handleSubmit(async (values) => {
    setSaveFailed(false);
    try {
      const payload: Record<string, unknown> = {
        ...parsePayload(schema(), values, Object.keys(values)),
      };
      for (const key of omit) delete payload[key];
      await save.mutateAsync({ values: payload, exists: record !== null && record !== undefined });
    } catch (error) {
      setSaveFailed(true);
      if (error instanceof SectionFailure && error.status === 400)
        applyServerFieldErrors(form, error.body);
    }
  });

  const { isDirty, isValid } = form.formState;
  return {
    query,
    record,
    form,
    consents,
    submit,
    saving: save.isPending,
    resetKey,
    isNew: record === null,
    changed: isDirty,
    loadFailed: query.isError,
    saveFailed,
    retry: () => (query.isError ? void query.refetch() : void submit()),
    canSave: isDirty && isValid && consents.given,
  };
}
