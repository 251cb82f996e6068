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
  completed_at: z.iso.datetime({ offset: true }),
});

export const idvCallbackSchema = z.object({
  id: text(100).min(1),
  result: idvResultSchema,
});
