import { z } from 'zod';
import { timestampOut } from './common.js';

/**
 * One entry of an activity's notes history (GET and POST /api/ops/case-activities/{id}/notes/,
 * spec point 7): the actor's names, the timestamp and the notes saved.
 */
export const activityNoteOut = z.strictObject({
  id: z.number(),
  actor_first_name: z.string(),
  actor_last_name: z.string(),
  timestamp: timestampOut,
  description: z.string(),
});
export type ActivityNoteOut = z.infer<typeof activityNoteOut>;
