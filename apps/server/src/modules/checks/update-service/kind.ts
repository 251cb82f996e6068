import {
  ACTIVITY_KINDS,
  type CaseActivityState,
  DBS_CHECK_CODES,
  type DbsUpdateResultData,
  type DbsUpdateServiceStatus,
  isCertificateStatus,
} from '@kestrel/domain';
import { and, asc, eq, inArray } from 'drizzle-orm';
import type { ServiceContext } from '../../../platform/service-context.js';
import type {
  StatusCheckAnswer,
  StatusCheckQuery,
  UpdateServiceProvider,
} from '../../../providers/dbs-update-service/provider.js';
import { changeActivity } from '../../activities/activities.service.js';
import { caseActivities } from '../../activities/activities.table.js';
import { activityTypes } from '../../bootstrap/bootstrap.table.js';
import { caseDbsUpdateDetails } from '../../case-data/case-data.table.js';
import { customers } from '../../customers/customers.table.js';
import { flagLicencesOnNewInformation } from '../../lms/licence-flags.js';
import { saveActivity, today } from '../activity.js';
import { defineKind, type LockedActivity } from '../kind.js';
import { updateServiceProvider } from './providers.js';

/*
 * The DBS update service check: one status check of the certificate the subject gave (its number,
 * surname and date of birth), answered at once; the status found is also shown on the case's
 * criminal-record checks.
 */

/**
 * The update service's answer as the activity's state and result_data: a documented status
 * completes the check (its meaning is the result shown); any other needs a decision, shown as
 * 'Unexpected status.'.
 */
export function mapStatusCheck(
  a: StatusCheckAnswer,
  certificateNumber: string,
  checkedDate: string,
): { state: CaseActivityState; resultData: DbsUpdateResultData } {
  return {
    state: isCertificateStatus(a.status) ? 'ca-complete' : 'ca-pending-activity-decision',
    resultData: {
      certificate_status: a.status,
      certificate_number: certificateNumber,
      forename: a.forename,
      surname: a.surname,
      print_date: a.print_date,
      checked_date: checkedDate,
    },
  };
}

/**
 * The update service status found by the case's update service check, on each of the case's
 * criminal-record checks (their panels' 'update service status'), audited. The case is locked
 * (lockActivity locked it): no other write of its activities runs meanwhile.
 */
async function shareUpdateServiceStatus(
  ctx: ServiceContext,
  a: LockedActivity,
  status: DbsUpdateServiceStatus,
): Promise<void> {
  const siblings = await ctx.tx
    .select({ id: caseActivities.id, resultData: caseActivities.resultData })
    .from(caseActivities)
    .innerJoin(activityTypes, eq(activityTypes.id, caseActivities.activityTypeId))
    .where(
      and(
        eq(caseActivities.caseId, a.row.caseId),
        inArray(activityTypes.code, [...DBS_CHECK_CODES]),
      ),
    )
    .orderBy(asc(caseActivities.id));
  for (const s of siblings) {
    await changeActivity(
      ctx.tx,
      ctx.actor,
      s.id,
      { result_data: { ...s.resultData, update_service: status } },
      ctx.clock.now(),
    );
  }
}

export const dbsUpdateKind = defineKind<
  UpdateServiceProvider,
  StatusCheckQuery,
  StatusCheckAnswer,
  never,
  'dbs-update'
>({
  code: 'dbs-update',
  provider: updateServiceProvider,
  trigger: 'submission',
  resultSchema: ACTIVITY_KINDS['dbs-update'].result,
  async request(tx, a) {
    const [details] = await tx
      .select()
      .from(caseDbsUpdateDetails)
      .where(eq(caseDbsUpdateDetails.caseId, a.row.caseId));
    const [customer] = await tx
      .select({ name: customers.name })
      .from(customers)
      .where(eq(customers.id, a.row.customerId));
    if (!details?.certificateNumber || !details.dob || !details.surname) return null;
    return {
      certificate_number: details.certificateNumber,
      surname: details.surname,
      dob: details.dob,
      organisation_name: customer?.name ?? '',
      employee_forename: 'Kestrel',
      employee_surname: 'Checks',
    };
  },
  // the certificate asked about, not the holder's date of birth
  logged: (q) => ({
    certificate_number: q.certificate_number,
    surname: q.surname,
    organisation_name: q.organisation_name,
  }),
  // a status check is a read: sent again, it answers the same (no key to send)
  send: (p, q, call) => p.statusCheck(q, call.signal),
  async answered(ctx, a, processing, query, answer) {
    // the certificate is the check's reference; the answer is its whole result
    const checked = today(ctx);
    const mapped = mapStatusCheck(answer, query.certificate_number, checked);
    const { activity } = await saveActivity(
      ctx,
      a,
      { ...processing, reference: query.certificate_number, last_error: null },
      { state: mapped.state, resultData: a.kind.resultSchema.parse(mapped.resultData) },
    );
    await shareUpdateServiceStatus(ctx, a, {
      certificate_status: answer.status,
      checked_date: checked,
    });
    // a licensed driver's new information is flagged to the licensing team (issue 32)
    if (answer.status === 'NEW_INFO') {
      await flagLicencesOnNewInformation(ctx, a.row, query.certificate_number, checked);
    }
    return { row: activity, tracking: false };
  },
});
