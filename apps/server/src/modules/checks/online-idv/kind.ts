import {
  ACTIVITY_KINDS,
  type CaseActivityState,
  type OnlineIdvResultData,
  type ProcessingData,
} from '@kestrel/domain';
import { eq } from 'drizzle-orm';
import type { ServiceContext } from '../../../platform/service-context.js';
import type { IdvProvider, IdvResult } from '../../../providers/idv/provider.js';
import { idvCallbackUpdateSchema } from '../../../providers/idv/result-schema.js';
import { idvResultDataOf, storeIdvResult } from '../../online-idv/online-idv.service.js';
import { caseOnlineIdv } from '../../online-idv/online-idv.table.js';
import { saveActivity } from '../activity.js';
import { type Applied, defineKind, type LockedActivity } from '../kind.js';
import { idvProvider } from './providers.js';

/*
 * Online identity verification (a certified identity service provider, providers/idv). The
 * subject does the check in the portal's first section, before submitting: a provider session
 * (modules/online-idv) whose result is stored on the case once, by the portal on the person's
 * return or by the provider's signed callback. On submission the engine takes it from there: the
 * session is the activity's reference, its stored result (else the provider's, asked once, then
 * polled and called back) moves the activity: verified by spec point 4's rule and no name
 * mismatch: complete; failed, unverified or a name mismatch: a decision (operations may approve
 * the identity by hand: approve.ts).
 */

interface IdvStart {
  session: string;
  /** The case already holds the session's result (the portal stored it). */
  stored: boolean;
}

/** The provider's result of the session; null while the person has not finished. */
interface IdvAnswer {
  result: IdvResult | null;
}

/** A callback's or a poll's update: the session and its result (null: not finished yet). */
interface IdvUpdate {
  reference: string;
  result: IdvResult | null;
}

/** Where a finished check leaves the activity (spec point 4, and the name mismatch of point 5). */
export function idvStateOf(data: OnlineIdvResultData): CaseActivityState {
  if (!data.outcome) return 'ca-in-progress';
  if (data.manual_idv_approved) return 'ca-complete';
  return data.verified && !data.name_mismatch ? 'ca-complete' : 'ca-pending-activity-decision';
}

/** Stores `result` on the case (once) and moves the activity by what the case now holds. */
async function applyResult(
  ctx: ServiceContext,
  a: LockedActivity,
  processing: ProcessingData,
  session: string,
  result: IdvResult | null,
): Promise<Applied> {
  if (result) await storeIdvResult(ctx, result);
  const [row] = await ctx.tx
    .select()
    .from(caseOnlineIdv)
    .where(eq(caseOnlineIdv.caseId, a.row.caseId));
  const data = row ? idvResultDataOf(row) : {};
  const state = idvStateOf(data);
  const { activity } = await saveActivity(
    ctx,
    a,
    { ...processing, reference: session, last_error: null },
    {
      state,
      resultData: a.kind.resultSchema.parse({ ...a.row.resultData, ...data }),
    },
  );
  return { row: activity, tracking: state === 'ca-in-progress' };
}

export const onlineIdvKind = defineKind<IdvProvider, IdvStart, IdvAnswer, IdvUpdate, 'online-idv'>({
  code: 'online-idv',
  provider: idvProvider,
  trigger: 'submission',
  resultSchema: ACTIVITY_KINDS['online-idv'].result,
  async request(tx, a) {
    const [row] = await tx
      .select({ session: caseOnlineIdv.session, status: caseOnlineIdv.status })
      .from(caseOnlineIdv)
      .where(eq(caseOnlineIdv.caseId, a.row.caseId));
    // no session: the subject never started the check (the start fails, for operations)
    if (!row) return null;
    return { session: row.session, stored: row.status !== 'in-progress' };
  },
  logged: (r) => ({ session: r.session, stored: r.stored }),
  // a stored result is not asked for again (the simulator forgets sessions on a restart)
  send: async (p, r, call) => ({
    result: r.stored ? null : await p.fetchResult(r.session, call.signal),
  }),
  answered: (ctx, a, processing, request, answer) =>
    applyResult(ctx, a, processing, request.session, answer.result),
  tracking: {
    status: async (p, reference, call) => ({
      reference,
      result: await p.fetchResult(reference, call.signal),
    }),
    update: idvCallbackUpdateSchema,
    apply: (ctx, a, processing, update) =>
      applyResult(ctx, a, processing, update.reference, update.result),
  },
});
