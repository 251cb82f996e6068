import { z } from 'zod';
import { MESSAGES } from './messages.js';
import {
  emailSchema,
  forenameSchema,
  requiredFreeTextSchema,
  surnameSchema,
} from './text-rules.js';

export const NOTES_MAX_LENGTH = 400;
export const NOTES_ROWS = 4;

/** Case activity notes (operations only): at most 400 characters ('Max length 400'). */
export const notesSchema = z
  .string({ error: MESSAGES.required })
  .max(NOTES_MAX_LENGTH, MESSAGES.notesMaxLength);

/** Save is disabled while the notes are over the limit. */
export function canSaveNotes(notes: string): boolean {
  return notes.length <= NOTES_MAX_LENGTH;
}

/** Davis email confirmation: required, must look like an email. */
export const davisEmailSchema = z.object({ email: emailSchema });

/** DBS enhanced provider configuration: every field required, emails valid. */
export const dbsEnhancedProviderSchema = z.object({
  forename: forenameSchema,
  surname: surnameSchema,
  email: emailSchema,
  manager_forename: forenameSchema,
  manager_surname: surnameSchema,
  manager_email: emailSchema,
  position: requiredFreeTextSchema,
  id_verifier_username: requiredFreeTextSchema,
  email_group: emailSchema,
});
export type DbsEnhancedProvider = z.infer<typeof dbsEnhancedProviderSchema>;

/** Knowledge test pass/fail radio. */
export const knowledgeTestResultSchema = z.object({
  result: z.enum(['pass', 'fail'], { error: MESSAGES.required }),
});
