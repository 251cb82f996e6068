import { z } from 'zod';

/*
 * An online test platform (the knowledge test): Kestrel invites a candidate to a test and gets a
 * link to send them; when they finish, the platform calls back (signed) with the result, and the
 * invitation can be read at any time. The shapes follow the public shape of hosted test platforms
 * (ClassMarker-style results: pass or fail, percentage, points, start and finish times, the
 * candidate's intro fields and extra info, per-category results and a link to the full results).
 */

export const TEST_PLATFORM = 'test-platform';

/** The candidate the invitation is for. */
export interface TestCandidate {
  first_name: string;
  last_name: string;
  email: string;
}

/** POST /v1/invitations: invites a candidate (idempotent by `reference`). */
export interface TestInvitationRequest {
  /** Kestrel's reference of the activity: the same for every submission of one activity. */
  reference: string;
  /** The platform's test the candidate takes. */
  test_id: string;
  /** Where the platform posts its signed callbacks for this invitation. */
  callback_url: string;
  candidate: TestCandidate;
}

const text = z.string().max(200);
const stamp = z.string().max(40);

export const testResultSchema = z.object({
  passed: z.boolean(),
  percentage: z.number().min(0).max(100),
  points_scored: z.number().min(0),
  points_available: z.number().min(0),
  time_started: stamp,
  time_finished: stamp,
  duration_seconds: z.number().int().min(0),
  intro: z.object({
    first_name: text,
    last_name: text,
    email: text,
    extra_info: text,
    extra_info2: text,
  }),
  category_results: z
    .array(
      z.object({
        name: text,
        percentage: z.number().min(0).max(100),
        points_scored: z.number().min(0),
        points_available: z.number().min(0),
      }),
    )
    .max(100),
  results_url: z.string().max(500),
});
export type TestResult = z.infer<typeof testResultSchema>;

export const TEST_INVITATION_STATUSES = ['invited', 'completed', 'expired'] as const;

/** An invitation as the platform reports it (its answer, a read, or a callback's body). */
export const testInvitationSchema = z.object({
  invitation_id: z.string().min(1).max(100),
  status: z.enum(TEST_INVITATION_STATUSES),
  test_url: z.string().max(500),
  invited_at: stamp,
  result: testResultSchema.nullable(),
});
export type TestInvitation = z.infer<typeof testInvitationSchema>;

/**
 * A callback: the invitation as it stands, with the platform's event id (replays) and the
 * invitation it is about as `reference` (the engine's ProviderCallback).
 */
export const testCallbackSchema = testInvitationSchema.extend({
  event_id: z.string().min(1).max(100),
  reference: z.string().min(1).max(100),
});
export type TestCallback = z.infer<typeof testCallbackSchema>;

export interface KnowledgeTestProvider {
  readonly name: typeof TEST_PLATFORM;
  /** Invites the candidate (idempotently: the same reference answers the same invitation). */
  invite(request: TestInvitationRequest, signal: AbortSignal): Promise<TestInvitation>;
  /** The invitation as it stands now. */
  invitation(invitationId: string, signal: AbortSignal): Promise<TestInvitation>;
}

export { aborted, ProviderError } from '../errors.js';
