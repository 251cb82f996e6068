import { z } from 'zod';

/** A timestamp in a response: ISO 8601 in UTC, as the server writes it. */
export const timestampOut = z.string();
export const nullableTimestampOut = z.string().nullable();

/** One page of a list: `{count, next, previous, results}` (spec point 7). */
export function pageOut<T extends z.ZodType>(item: T) {
  return z.strictObject({
    count: z.number(),
    /** The total was counted up to 10,000 and there are more (shown as "10,000+"). */
    count_capped: z.literal(true).optional(),
    next: z.string().nullable(),
    previous: z.string().nullable(),
    results: z.array(item),
  });
}

/** The largest `integer` (int4): most ids and every foreign key. */
export const INT4_MAX = 2_147_483_647;

/** An id in a JSON body: a positive int4 (DRF's messages). */
export const idSchema = z
  .number({
    error: (issue) => (issue.input === undefined ? 'Required' : 'A valid integer is required.'),
  })
  .int('A valid integer is required.')
  .min(1, 'Invalid pk - object does not exist.')
  .max(INT4_MAX, 'Invalid pk - object does not exist.');

/** Whether an object can be archived now, and why not (GET .../archivable/). */
export const archivabilityOut = z.strictObject({
  archivable: z.boolean(),
  reason: z.string().nullable(),
});
export type ArchivabilityOut = z.infer<typeof archivabilityOut>;

/** A 204 answer: no content (DELETE and a few actions). */
export const noContent = z.undefined().describe('No content');
