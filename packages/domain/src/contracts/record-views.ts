import { z } from 'zod';

/** Who saw what (issue 34): the kinds of item whose views are recorded. */
export const RECORD_VIEW_KIND_CODES = ['criminal_record', 'driving_record', 'document'] as const;
export const recordViewKindSchema = z.enum(RECORD_VIEW_KIND_CODES);
export type RecordViewKind = z.infer<typeof recordViewKindSchema>;

/**
 * How an item was seen: `page` (a result on screen, a document's preview), `download` (a
 * document's file) or `export` (in the case's PDF or the case list's CSV export).
 */
export const RECORD_VIEW_MANNERS = ['page', 'download', 'export'] as const;
export const recordViewMannerSchema = z.enum(RECORD_VIEW_MANNERS);
export type RecordViewManner = z.infer<typeof recordViewMannerSchema>;

/** One row of /api/record-views/ and /api/ops/record-views/: who saw which item, how often. */
export const recordViewOut = z.strictObject({
  id: z.number(),
  customer: z.number(),
  case: z.number(),
  item_kind: recordViewKindSchema,
  item_id: z.number(),
  item_label: z.string(),
  how: recordViewMannerSchema,
  actor_type: z.string().nullable(),
  actor: z.number().nullable(),
  actor_name: z.string(),
  actor_is_ops: z.boolean(),
  count: z.number(),
  first_seen_at: z.string(),
  last_seen_at: z.string(),
  ip: z.string().nullable(),
  user_agent: z.string(),
});
export type RecordViewOut = z.infer<typeof recordViewOut>;
