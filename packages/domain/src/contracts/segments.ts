import { z } from 'zod';
import { MESSAGES, maxCharacters } from '../messages.js';
import { postcodeSchema } from '../postcode.js';
import { optionalEmailSchema, optionalText, phoneOrBlankSchema } from '../text-rules.js';
import { idSchema, timestampOut } from './common.js';

export const SEGMENT_NAME_MAX = 100;
export const SEGMENT_EMPLOYER_NAME_MAX = 200;
export const SEGMENT_LINE_MAX = 200;
export const SEGMENT_TOWN_MAX = 100;
export const SEGMENT_CONTACT_NAME_MAX = 120;

/** A text field that may be left blank ('' when it is). */
const blankable = (max: number) => z.string().trim().max(max, maxCharacters(max));

const segmentFields = {
  name: z
    .string({ error: MESSAGES.required })
    .trim()
    .min(1, MESSAGES.required)
    .max(SEGMENT_NAME_MAX, maxCharacters(SEGMENT_NAME_MAX)),
  /** The 'segment employer name' of an activity's configuration (activity-config.ts). */
  employer_name: blankable(SEGMENT_EMPLOYER_NAME_MAX),
  line_one: blankable(SEGMENT_LINE_MAX),
  line_two: blankable(SEGMENT_LINE_MAX),
  town: blankable(SEGMENT_TOWN_MAX),
  /** A UK postcode (upper-cased), or '' when not known. */
  postcode: optionalText(postcodeSchema).transform((v) => v ?? ''),
  contact_name: blankable(SEGMENT_CONTACT_NAME_MAX),
  contact_email: optionalEmailSchema.transform((v) => v ?? ''),
  /** E.164, or '' when not known. */
  contact_phone: phoneOrBlankSchema,
};

/** PUT /api/segments/{id}/ (PATCH: the same, partial). */
export const segmentUpdate = z.object(segmentFields);
export type SegmentUpdate = z.output<typeof segmentUpdate>;

/** POST /api/segments/: the name, every other field optional (''). */
export const segmentCreate = z.object({
  name: segmentFields.name,
  employer_name: segmentFields.employer_name.default(''),
  line_one: segmentFields.line_one.default(''),
  line_two: segmentFields.line_two.default(''),
  town: segmentFields.town.default(''),
  postcode: segmentFields.postcode,
  contact_name: segmentFields.contact_name.default(''),
  contact_email: segmentFields.contact_email,
  contact_phone: segmentFields.contact_phone.default(''),
});
export type SegmentCreate = z.output<typeof segmentCreate>;

/** A segment as /api/segments/ returns it (and /api/ops/customers/{id}/segments/). */
export const segmentOut = z.strictObject({
  id: z.number(),
  name: z.string(),
  employer_name: z.string(),
  line_one: z.string(),
  line_two: z.string(),
  town: z.string(),
  postcode: z.string(),
  contact_name: z.string(),
  contact_email: z.string(),
  contact_phone: z.string(),
  created_at: timestampOut,
  updated_at: timestampOut,
  /** How many users it limits, and how many processes belong to it. */
  user_count: z.number(),
  process_count: z.number(),
});
export type SegmentOut = z.infer<typeof segmentOut>;

/** POST /api/segments/{id}/users/: a user of the organisation added to the segment. */
export const segmentUserAdd = z.object({ user: idSchema });
export type SegmentUserAdd = z.output<typeof segmentUserAdd>;

/** A user of a segment (GET /api/segments/{id}/users/). */
export const segmentUserOut = z.strictObject({
  id: z.number(),
  first_name: z.string(),
  last_name: z.string(),
  email: z.string(),
  is_active: z.boolean(),
});
export type SegmentUserOut = z.infer<typeof segmentUserOut>;

/**
 * POST /api/segments/{id}/processes/: a process assigned to the segment (a process belongs to
 * at most one: assigning moves it from its previous segment).
 */
export const segmentProcessAdd = z.object({ process: idSchema });
export type SegmentProcessAdd = z.output<typeof segmentProcessAdd>;

/** A process of a segment (GET /api/segments/{id}/processes/). */
export const segmentProcessOut = z.strictObject({
  id: z.number(),
  name: z.string(),
  is_active: z.boolean(),
});
export type SegmentProcessOut = z.infer<typeof segmentProcessOut>;
