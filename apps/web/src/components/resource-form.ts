import { zodResolver } from '@hookform/resolvers/zod';
import { type DefaultValues, type FieldValues, type Path, useForm } from 'react-hook-form';
import type { z } from 'zod';
import { ApiFailure } from '../api/resource';
import { applyServerFieldErrors } from './form-kit/server-errors';

/** What `useResourceForm` needs from a resource (a `defineResource` result). */
export interface SavableResource<TItem> {
  useSave: (options?: { partial?: boolean }) => {
    mutateAsync: (args: { id?: number | string; values: unknown }) => Promise<TItem>;
    isPending: boolean;
  };
}

/**
 * The resource form pattern: a domain Zod schema validates in the browser, the save goes through
 * the resource (which toasts 'Successfully added {item}' / 'Error adding {item}' from the message
 * catalogue), and a 400's field errors land on the matching inputs.
 */
export function useResourceForm<TIn extends FieldValues, TOut extends FieldValues, TItem>({
  resource,
  schema,
  id,
  defaultValues,
  partial,
  onSaved,
}: {
  resource: SavableResource<TItem>;
  schema: z.ZodType<TOut, TIn>;
  id?: number | string;
  defaultValues: DefaultValues<TIn>;
  partial?: boolean;
  onSaved?: (item: TItem) => void;
}) {
  const form = useForm<TIn, unknown, TOut>({
    resolver: zodResolver(schema),
    defaultValues,
    mode: 'onTouched',
  });
  const save = resource.useSave({ partial });
  const onSubmit = form.handleSubmit(async (values) => {
    try {
      const item = await save.mutateAsync({ id, values });
      onSaved?.(item);
    } catch (error) {
      if (error instanceof ApiFailure && error.status === 400) {
        const fields = Object.keys(form.getValues()) as Path<TIn>[];
        applyServerFieldErrors<TIn>(form, error.body, fields);
      }
    }
  });
  return { form, onSubmit, saving: save.isPending };
}
