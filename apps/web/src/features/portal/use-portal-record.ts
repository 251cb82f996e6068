import { useQuery } from '@tanstack/react-query';
import { useCallback, useEffect, useRef, useState } from 'react';
import {
  type DefaultValues,
  type FieldValues,
  type Path,
  useForm,
  useWatch,
} from 'react-hook-form';
import type { z } from 'zod';
import { type CaseRecord, SectionFailure, useSaveCaseRecord } from '../../api/case-data';
import { applyServerFieldErrors, parsePayload, schemaResolver } from '../../components/form-kit';
import { clearDraft, readDraft, writeDraft } from './drafts';

/**
 * One case data record in the portal (basic details, ...), through the subject API (/api/s/):
 * loaded into a form, what is typed kept as a draft until saved, saved with `save()` (true when
 * saved; a 400 puts its messages on the fields; other failures throw, for the shell's summary).
 */
export function usePortalRecord<T, V extends FieldValues>({
  resource,
  caseId,
  schema,
  toForm,
  omit = [],
}: {
  resource: CaseRecord<T>;
  caseId: number;
  schema: () => z.ZodType;
  toForm: (record: T | null) => V;
  omit?: readonly string[];
}) {
  const query = useQuery(resource.options(caseId, 'subject'));
  const form = useForm<V>({
    resolver: schemaResolver<V>(schema),
    defaultValues: toForm(null) as DefaultValues<V>,
    // Checked on Continue (GOV.UK), then again as the person types: a message shown when a field
    // is left would move the Continue button between its press and release, and the press would
    // be lost (no summary).
    mode: 'onSubmit',
  });
  const mutation = useSaveCaseRecord(resource, caseId, 'subject');
  const record = query.data;
  const toFormRef = useRef(toForm);
  toFormRef.current = toForm;
  const loadedRef = useRef(false);
  // The values as last loaded or saved: a draft is kept only while the form differs from them.
  const baselineRef = useRef('');
  const pendingDraft = useRef<Partial<V> | null>(null);
  // Changes when the form is reset, so the date selectors take the new values.
  const [resetKey, setResetKey] = useState(0);

  // The record (once).
  useEffect(() => {
    if (record === undefined || loadedRef.current) return;
    loadedRef.current = true;
    const values = toFormRef.current(record);
    baselineRef.current = JSON.stringify(values);
    form.reset(values);
    pendingDraft.current = readDraft<V>(caseId, resource.resource);
    setResetKey((k) => k + 1);
  }, [record, form, caseId, resource.resource]);

  // Then the draft over it, once the form shows the record: changed from it, so Continue or Back
  // saves it.
  useEffect(() => {
    const draft = pendingDraft.current;
    if (!draft || resetKey === 0) return;
    pendingDraft.current = null;
    for (const [key, value] of Object.entries(draft)) {
      if (key in form.getValues()) form.setValue(key as Path<V>, value, { shouldDirty: true });
    }
    setResetKey((k) => k + 1);
  }, [resetKey, form]);

  // What is typed is kept until it is saved.
  const watched = useWatch({ control: form.control });
  useEffect(() => {
    if (!loadedRef.current) return;
    if (JSON.stringify(watched) === baselineRef.current) clearDraft(caseId, resource.resource);
    else writeDraft(caseId, resource.resource, watched);
  }, [watched, caseId, resource.resource]);

  const save = useCallback(async (): Promise<boolean> => {
    const valid = await form.trigger();
    if (!valid) return false;
    const values = form.getValues();
    const payload: Record<string, unknown> = {
      ...parsePayload(schema(), values, Object.keys(values)),
    };
    for (const key of omit) delete payload[key];
    try {
      const saved = await mutation.mutateAsync({
        values: payload,
        exists: record !== null && record !== undefined,
      });
      const values = toFormRef.current(saved);
      baselineRef.current = JSON.stringify(values);
      form.reset(values);
      clearDraft(caseId, resource.resource);
      return true;
    } catch (error) {
      if (error instanceof SectionFailure && error.status === 400) {
        applyServerFieldErrors(form, error.body);
        return false;
      }
      throw error;
    }
  }, [form, schema, omit, mutation, record, caseId, resource.resource]);

  /** Before leaving with Back: save when it can be saved; otherwise the draft stays. */
  const saveIfPossible = useCallback(async () => {
    if (!form.formState.isDirty) return;
    try {
      await save();
    } catch {
      // The draft stays; the person can save it when they come back.
    }
  }, [form, save]);

  return {
    query,
    record,
    form,
    save,
    saveIfPossible,
    resetKey,
    saving: mutation.isPending,
    loading: query.isPending,
    loadFailed: query.isError && record === undefined,
  };
}
