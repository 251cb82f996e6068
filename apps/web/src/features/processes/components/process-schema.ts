import { MESSAGES, maxCharacters } from '@kestrel/domain';
import { z } from 'zod';

/** The process fields a customer edits (details). */
export const processDetailsSchema = z.object({
  name: z.string().trim().min(1, MESSAGES.required).max(100, maxCharacters(100)),
  description: z.string().trim().max(500, maxCharacters(500)),
  is_active: z.boolean(),
});
export type ProcessDetails = z.infer<typeof processDetailsSchema>;
