import { z } from 'zod';
import { onlineIdvOut } from './portal.js';

// The subject's online identity check (spec points 2 and 3): /api/s/case-online-idv/{case id}/.
//   GET              the check as the portal section shows it
//   POST .../start/  opens a provider session (201 {session, url}): the person goes to `url`
//   POST .../refresh/  on return from the provider: asks for the result and stores it once
// The provider posts results to /webhooks/idv/ (signed; apps/server/src/providers/idv/README.md).

export const ONLINE_IDV_STATUSES = ['not-started', 'in-progress', 'passed', 'failed'] as const;
export type OnlineIdvStatus = (typeof ONLINE_IDV_STATUSES)[number];

/** What the portal section reads: the point 3 data, its status and the provider's page. */
export const subjectOnlineIdvOut = onlineIdvOut.extend({
  status: z.enum(ONLINE_IDV_STATUSES),
  /** The provider's page of the unfinished session (to go back to it), else null. */
  url: z.string().nullable(),
});
export type SubjectOnlineIdvOut = z.infer<typeof subjectOnlineIdvOut>;

export const onlineIdvStartOut = z.strictObject({
  session: z.string(),
  url: z.string(),
});
export type OnlineIdvStartOut = z.infer<typeof onlineIdvStartOut>;

/** The verified data a pass stores under `id_profile` (what the section shows, locked). */
export interface OnlineIdvProfile {
  outcome: 'passed' | 'failed';
  level_of_assurance: string | null;
  schemes: { name: string; requirements_met: boolean }[];
  person: { forename: string; middlename: string; surname: string; dob: string } | null;
  address: {
    line_one: string;
    line_two: string;
    town: string;
    postcode: string;
    country: string;
    from_date: string;
  } | null;
  failure_reason: string | null;
  completed_at: string;
}

/** Texts of the check (the section and the server's refusals). */
export const ONLINE_IDV_CHECK_TEXTS = {
  alreadyVerified: 'Your identity has already been verified.',
  providerUnavailable:
    'The identity check service is not available at the moment. Please try again later.',
} as const;
