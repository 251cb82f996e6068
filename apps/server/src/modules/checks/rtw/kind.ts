import {
  ACTIVITY_KINDS,
  type CaseActivityState,
  formatDate,
  RTW_METHOD_LABELS,
  RTW_OUTCOME_LABELS,
  type RtwMethod,
  type RtwOutcome,
  type RtwResultData,
  readResultData,
  rtwFollowUpDate,
} from '@kestrel/domain';
import { and, eq, sql } from 'drizzle-orm';
import type { Tx } from '../../../db/connection.js';
import { recordAudit } from '../../../platform/audit.js';
import type { ServiceContext } from '../../../platform/service-context.js';
import type {
  HomeOfficeRtwProvider,
  RtwShareCodeAnswer,
  RtwShareCodeQuery,
} from '../../../providers/home-office-rtw/provider.js';
import { caseBasicDetails } from '../../case-data/case-data.table.js';
import { customers } from '../../customers/customers.table.js';
import { caseRtwDetails } from '../../dbs-details/dbs-details.table.js';
import { decryptValue } from '../../encryption/field-cipher.js';
import { maskIdentifier } from '../../encryption/mask.js';
import { saveActivity } from '../activity.js';
import { defineKind } from '../kind.js';
import { homeOfficeRtwProvider } from './providers.js';

/*
 * Right to work (spec point 2's panel: names, nationality, verification method, checked by,
 * checked at, result, documents). The subject chooses a route in the portal's rtw section
 * (case_rtw_details): a share code goes to the Home Office's online check on submission (the
 * engine; answered at once); documents from the right-to-work list wait with the customer's
 * agent ('ca-awaiting-agent', the kind's gate) for a manual check by operations or the
 * customer's staff (manual-check.ts). A time-limited right gets a follow-up date, shown on the
 * panel and in the case's right-to-work details.
 */

/** The audit's content type of the case's right-to-work details (dbs-details' own). */
const RTW_DETAILS_CONTENT_TYPE = 'cases.casertwdetails';

/** Who made an online check (checked by). */
export const HOME_OFFICE_CHECKER = 'Home Office online check';

/** The case's chosen route and share code, or null without any. */
async function routeOf(tx: Tx, caseId: number) {
  const [r] = await tx
    .select({ route: caseRtwDetails.route, shareCode: caseRtwDetails.shareCode })
    .from(caseRtwDetails)
    .where(eq(caseRtwDetails.caseId, caseId));
  // the share code is encrypted at rest (decision 027): sent to the Home Office plain
  return r
    ? { ...r, shareCode: decryptValue('case_rtw_details', 'share_code', r.shareCode) }
    : null;
}

/** The right-to-work activity's state and result data for the Home Office's answer. */
export function mapShareCodeAnswer(
  answer: RtwShareCodeAnswer,
  shareCode: string,
  checkedAt: Date,
): { state: CaseActivityState; resultData: RtwResultData } {
  const day = checkedAt.toISOString().slice(0, 10);
  const found = answer.status !== 'not-found';
  return {
    // no profile found: the customer decides (a manual document check may follow)
    state: found ? 'ca-complete' : 'ca-pending-activity-decision',
    resultData: {
      method: 'share-code',
      outcome: answer.status,
      forename: answer.forename,
      surname: answer.surname,
      nationality: answer.nationality,
      status_text: answer.status_text,
      conditions: answer.conditions,
      expiry_date: answer.expiry_date,
      follow_up_date:
        answer.status === 'time-limited' && answer.expiry_date
          ? rtwFollowUpDate(answer.expiry_date, day)
          : null,
      photo: answer.photo,
      // the share code is stored encrypted with the case's details; the result keeps it masked
      share_code: maskIdentifier(shareCode),
      checked_by: HOME_OFFICE_CHECKER,
      checked_at: checkedAt.toISOString(),
    },
  };
}

/** The words of the case's right-to-work details for a result (its state and follow-up). */
export function rtwStateDisplay(outcome: RtwOutcome, followUp: string | null | undefined): string {
  const label = RTW_OUTCOME_LABELS[outcome];
  return followUp ? `${label} (follow-up check due by ${formatDate(followUp)})` : label;
}

/**
 * Writes a check's outcome into the case's right-to-work details (spec point 3:
 * verification_method_display, checked_by, checked_at, state_display), audited.
 */
export async function recordRtwDetails(
  ctx: ServiceContext,
  key: { customerId: number; caseId: number },
  data: { method: RtwMethod; outcome: RtwOutcome; followUp: string | null; checkedBy: string },
): Promise<void> {
  const now = ctx.clock.now();
  const values = {
    verificationMethodDisplay: RTW_METHOD_LABELS[data.method],
    checkedBy: data.checkedBy,
    checkedAt: now,
    stateDisplay: rtwStateDisplay(data.outcome, data.followUp),
  };
  const [before] = await ctx.tx
    .select()
    .from(caseRtwDetails)
    .where(
      and(eq(caseRtwDetails.customerId, key.customerId), eq(caseRtwDetails.caseId, key.caseId)),
    );
  if (before) {
    await ctx.tx
      .update(caseRtwDetails)
      .set({ ...values, updatedAt: now })
      .where(
        and(eq(caseRtwDetails.customerId, key.customerId), eq(caseRtwDetails.caseId, key.caseId)),
      );
  } else {
    await ctx.tx.insert(caseRtwDetails).values({ ...key, ...values });
  }
  await recordAudit(ctx.tx, ctx.actor, {
    verb: before ? 'updated' : 'created',
    contentType: RTW_DETAILS_CONTENT_TYPE,
    objectId: key.caseId,
    objectRepr: `Right to work details of case ${key.caseId}`,
    customerId: key.customerId,
    changes: {
      case: key.caseId,
      verification_method_display: [
        before?.verificationMethodDisplay ?? null,
        values.verificationMethodDisplay,
      ],
      checked_by: [before?.checkedBy ?? null, values.checkedBy],
      state_display: [before?.stateDisplay ?? null, values.stateDisplay],
    },
  });
}

/** The person's names and date of birth as the case knows them (basic details, else the subject). */
export async function personOf(tx: Tx, caseId: number) {
  const rows = await tx.execute<{
    forename: string;
    surname: string;
    dob: string | null;
    nationality: string;
  }>(sql`
    select coalesce(nullif(b.forename, ''), s.first_name, '') as forename,
      coalesce(nullif(b.surname, ''), s.last_name, '') as surname,
      coalesce(b.dob, s.dob)::text as dob,
      coalesce(b.nationality, '') as nationality
    from cases c
    join subjects s on s.customer_id = c.customer_id and s.id = c.subject_id
    left join ${caseBasicDetails} b on b.customer_id = c.customer_id and b.case_id = c.id
    where c.id = ${caseId}`);
  const r = rows[0];
  return {
    forename: r?.forename ?? '',
    surname: r?.surname ?? '',
    dob: r?.dob ? r.dob.slice(0, 10) : null,
    nationality: r?.nationality ?? '',
  };
}

export const rtwKind = defineKind<
  HomeOfficeRtwProvider,
  RtwShareCodeQuery,
  RtwShareCodeAnswer,
  never,
  'rtw'
>({
  code: 'rtw',
  provider: homeOfficeRtwProvider,
  trigger: 'submission',
  resultSchema: ACTIVITY_KINDS.rtw.result,
  // only a share code goes to the Home Office; documents wait for a manual check
  gate: {
    ready: async (tx, caseId) => (await routeOf(tx, caseId))?.route === 'share-code',
  },
  async request(tx, a) {
    const route = await routeOf(tx, a.row.caseId);
    const person = await personOf(tx, a.row.caseId);
    if (!route?.shareCode || !person.dob) return null;
    const [customer] = await tx
      .select({ name: customers.name })
      .from(customers)
      .where(eq(customers.id, a.row.customerId));
    return {
      share_code: route.shareCode,
      date_of_birth: person.dob,
      company_name: customer?.name ?? '',
      applicant: { forename: person.forename, surname: person.surname },
    };
  },
  // the share code (masked: no plain copy outside the case's encrypted details) and the
  // employer (not the date of birth)
  logged: (q) => ({ share_code: maskIdentifier(q.share_code), company_name: q.company_name }),
  // a check is a read: asked again, it answers the same
  send: (p, q, call) => p.checkShareCode(q, call.signal),
  async answered(ctx, a, processing, query, answer) {
    const mapped = mapShareCodeAnswer(answer, query.share_code, ctx.clock.now());
    const { activity } = await saveActivity(
      ctx,
      a,
      { ...processing, reference: answer.check_reference, last_error: null },
      { state: mapped.state, resultData: a.kind.resultSchema.parse(mapped.resultData) },
    );
    await recordRtwDetails(
      ctx,
      { customerId: a.row.customerId, caseId: a.row.caseId },
      {
        method: 'share-code',
        outcome: answer.status,
        followUp: mapped.resultData.follow_up_date ?? null,
        checkedBy: HOME_OFFICE_CHECKER,
      },
    );
    return { row: activity, tracking: false };
  },
  subjectView: subjectRtwData,
});

/**
 * What the subject reads of a right to work check (the restricted view): not the member of staff
 * who checked (the Home Office online check is named), their notes, the Home Office photo or the
 * share code.
 */
export function subjectRtwData(resultData: unknown): RtwResultData {
  const { notes: _n, photo: _p, share_code: _s, ...rest } = readResultData('rtw', resultData);
  return rest.checked_by === HOME_OFFICE_CHECKER || !rest.checked_by
    ? rest
    : { ...rest, checked_by: null };
}
