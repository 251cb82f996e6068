import { z } from 'zod';
import { idSchema } from './common.js';

// What the case data resources (spec points 3 and 7) share: the `case` a create carries, the
// `?case=` of a list, the locked fields of a response, and PATCH bodies built from the fields.

/** The `case` field of a create: the case the record belongs to. */
export const caseField = { case: idSchema };

/** `?case=ID` of a case-data list (other names, addresses): required. */
export const caseDataListQuery = z.object({
  case: z
    .string({ error: 'Required' })
    .regex(/^\d{1,10}$/, 'Enter a whole number.')
    .transform(Number)
    .pipe(idSchema),
});
export type CaseDataListQuery = z.output<typeof caseDataListQuery>;

/**
 * The fields that cannot be changed because the online identity check (idsp) provided them:
 * every editable field of an idsp-sourced record, or the idsp-provided fields of basic details.
 * A write that changes one answers 400 naming it ('Provided by the online identity check: it
 * cannot be changed.'); an idsp-sourced record cannot be deleted.
 */
export const lockedFieldsOut = z.array(z.string());

/** A date in a response: 'YYYY-MM-DD', or null when not given. */
export const dateOut = z.string().nullable();

type WithoutDefault<T> = T extends z.ZodDefault<infer I> ? I : T;
type PatchShape<S extends z.ZodRawShape> = { [K in keyof S]: z.ZodOptional<WithoutDefault<S[K]>> };

/**
 * The PATCH body of a resource: each field optional, checked by its own rule when present, with
 * no defaults (a field left out stays as stored). The rules across fields run on the merged
 * record on the server.
 */
export function patchOf<S extends z.ZodRawShape>(
  fields: z.ZodObject<S>,
): z.ZodObject<PatchShape<S>> {
  const shape: Record<string, z.core.$ZodType> = {};
  for (const [key, value] of Object.entries(fields.shape)) {
    const inner = value instanceof z.ZodDefault ? value.removeDefault() : value;
    shape[key] = z.optional(inner);
  }
  return z.object(shape) as z.ZodObject<PatchShape<S>>;
}
