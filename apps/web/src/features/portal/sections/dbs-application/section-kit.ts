import { useCallback, useEffect, useRef } from 'react';
import type { FieldValues, Path, UseFormReturn } from 'react-hook-form';
import { applyServerFieldErrors, flattenServerErrors } from '../../../../components/form-kit';
import { clearDraft, readDraft, writeDraft } from '../../drafts';
import { SectionCallFailure } from './api';

/** Today as 'YYYY-MM-DD' (UTC, as the server checks dates). */
export const isoToday = (): string => new Date().toISOString().slice(0, 10);

/** 'YYYY-MM-DD' `n` years later. */
export function plusYears(day: string, n: number): string {
  const [y = '2000', rest = ''] = [day.slice(0, 4), day.slice(4)];
  return `${Number(y) + n}${rest}`;
}

/**
 * Puts a 400's `{field: [messages]}` on the form's fields (true when it did: the summary shows
 * them); any other failure is left to the section shell ('An error has occurred').
 */
export function applyServerErrors<V extends FieldValues>(
  form: UseFormReturn<V>,
  error: unknown,
): boolean {
  if (!(error instanceof SectionCallFailure) || error.status !== 400) return false;
  const fields = Object.keys(form.getValues()) as Path<V>[];
  applyServerFieldErrors(form, error.body, fields);
  return Object.keys(flattenServerErrors(error.body)).some((path) =>
    fields.some((f) => f === path),
  );
}

/**
 * Keeps what the person types in the frame's drafts (session storage) until it is saved, so an
 * invalid form left with Back, or a reload, loses nothing: once `ready` (the form filled from the
 * server), the draft is put over it. Returns the function that drops the draft (after a save).
 */
export function useSectionDraft<V extends FieldValues>(
  form: UseFormReturn<V>,
  caseId: number,
  name: string,
  ready: boolean,
): () => void {
  const applied = useRef(false);
  useEffect(() => {
    if (!ready || applied.current) return;
    applied.current = true;
    const draft = readDraft<V>(caseId, name);
    if (!draft) return;
    for (const [key, value] of Object.entries(draft)) {
      form.setValue(key as Path<V>, value, { shouldDirty: true });
    }
  }, [ready, form, caseId, name]);
  useEffect(() => {
    const sub = form.watch((values) => {
      if (applied.current) writeDraft(caseId, name, values);
    });
    return () => sub.unsubscribe();
  }, [form, caseId, name]);
  return useCallback(() => clearDraft(caseId, name), [caseId, name]);
}
