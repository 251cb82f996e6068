import { z } from 'zod';

// The wire shape of a result (the provider's session answer and its callbacks), checked on the
// way in: nothing from outside reaches the database unchecked.

const day = z.string().regex(/^\d{4}-\d{2}-\d{2}$/);
const text = (max: number) => z.string().max(max);

export const idvResultSchema = z.object({
  session: text(100).min(1),
  reference: text(100),
  outcome: z.enum(['passed', 'failed']),
  ibv_verified: z.boolean(),
  ibv_session: text(100).nullable(),
  level_of_assurance: z.enum(['medium', 'high']).nullable(),
  schemes: z.array(z.object({ name: z.enum(['DBS', 'RTW']), requirements_met: z.boolean() })),
  person: z
    .object({
      forename: text(60),
      middlename: text(60),
      surname: text(50),
      dob: day,
    })
    .nullable(),
  address: z
    .object({
      line_one: text(60),
      line_two: text(60),
      town: text(60),
      postcode: text(12),
      country: z.string().length(3),
      from_date: day,
    })
    .nullable(),
  failure_reason: text(200).nullable(),
  route: z.enum(['digital', 'bank', 'post-office']).nullable().default(null),
  name_mismatch: z
    .object({
      reason: z.enum([
        'document_previous_name',
        'document_short_name',
        'account_name_incorrect',
        'other',
      ]),
      document_name: text(200),
    })
    .nullable()
    .default(null),
  completed_at: z.iso.datetime({ offset: true }),
});

/** A callback's body: its event id and the result. */
export const idvCallbackSchema = z.object({
  id: text(100).min(1),
  result: idvResultSchema,
});

/**
 * A callback as the check engine reads it (its provider entry's schema): the event id, the
 * application it names (the provider's session: the activity's reference) and the result.
 */
export const idvEngineCallbackSchema = z.union([
  // as the engine keeps it in its inbox (and reads it again when it applies it)
  z.object({ event_id: text(100).min(1), reference: text(100), result: idvResultSchema }),
  // as the provider sends it
  idvCallbackSchema.transform((e) => ({
    event_id: e.id,
    reference: e.result.session,
    result: e.result,
  })),
]);

/** The update a callback carries once its event id is set aside (the engine's kind update). */
export const idvCallbackUpdateSchema = z.object({
  reference: z.string(),
  /** Null: a poll of a session the person has not finished (nothing changes). */
  result: idvResultSchema.nullable(),
});
