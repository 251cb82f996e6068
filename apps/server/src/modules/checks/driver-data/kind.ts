import {
  ACTIVITY_KINDS,
  type CaseActivityState,
  type DriverDataResultData,
  readResultData,
  SUPPRESSED_RECORD_MAX_DAYS,
} from '@kestrel/domain';
import { differenceInCalendarDays } from 'date-fns/differenceInCalendarDays';
import { parseISO } from 'date-fns/parseISO';
import { and, eq, sql } from 'drizzle-orm';
import { z } from 'zod';
import { serviceJob } from '../../../jobs/service-job.js';
import type {
  DriverEnquiry,
  DriverEnquiryAnswer,
  DvlaProvider,
} from '../../../providers/dvla/provider.js';
import { caseActivities } from '../../activities/activities.table.js';
import { activityTypes } from '../../bootstrap/bootstrap.table.js';
import { saveActivity, today } from '../activity.js';
import { defineKind, initiateJobName } from '../kind.js';
import { caseLicenceOf } from './case-licence.js';
import { dvlaProvider } from './providers.js';
import { driverDataResult } from './record.js';
import { dailyCron } from './schedule.js';
import { subjectDriverData } from './subject-view.js';

/*
 * Driver data (DVLA Access to Driver Data): one enquiry of the licence number the subject gave,
 * with CPCs (and DQCs) when the activity's configuration has include_cpc and tacho cards when it
 * has include_tacho. A record completes the check; no record (ENQ018) leaves it for a decision;
 * a suppressed record (ENQ037) keeps it in progress, asked again each day by the kind's job for
 * up to 28 days from the first suppressed answer, then left for a decision. A 429 never gets
 * here: the provider's side waits it out (providers/dvla/rate-limit.ts).
 */

interface Request {
  enquiry: DriverEnquiry;
  mandateDate: string;
}

/**
 * The engine's start job, on the DVLA's start queue (kind.ts initiateJobName), enqueued by name:
 * the engine loads the kinds, so a kind does not import it.
 */
const ENGINE_START_JOB = initiateJobName(dvlaProvider);

/** The activity's state and result for an enquiry's answer (pure: the kind's transitions). */
export function mapEnquiry(
  answer: DriverEnquiryAnswer,
  o: {
    previous: DriverDataResultData;
    includeCpc: boolean;
    includeTacho: boolean;
    mandateDate: string;
    checked: string;
  },
): { state: CaseActivityState; resultData: DriverDataResultData } {
  const base = {
    mandate_date: o.mandateDate,
    checked_date: o.checked,
    include_cpc: o.includeCpc,
    include_tacho: o.includeTacho,
  };
  if (answer.found) {
    return { state: 'ca-complete', resultData: driverDataResult(answer.record, { ...o }) };
  }
  if (answer.code === 'ENQ037') {
    const since = o.previous.suppressed_since ?? o.checked;
    const days = differenceInCalendarDays(parseISO(o.checked), parseISO(since));
    return {
      state: days >= SUPPRESSED_RECORD_MAX_DAYS ? 'ca-pending-activity-decision' : 'ca-in-progress',
      resultData: { ...base, enquiry_code: 'ENQ037', suppressed_since: since },
    };
  }
  // ENQ018 (and any other enquiry code): no driver record to show
  return {
    state: 'ca-pending-activity-decision',
    resultData: { ...base, enquiry_code: 'ENQ018', suppressed_since: null },
  };
}

const configFlag = (config: unknown, key: 'include_cpc' | 'include_tacho'): boolean =>
  typeof config === 'object' &&
  config !== null &&
  (config as Record<string, unknown>)[key] === true;

/**
 * Each day (a simulated day with the simulator), the suppressed records' activities (ENQ037, in
 * progress) are asked again: the engine's start job runs their enquiry once more.
 */
export const driverDataSuppressedJob = serviceJob<Record<string, never>>({
  name: 'driver-data-suppressed',
  payload: z.object({}).strict(),
  retry: { limit: 0, delaySeconds: 0, backoff: false },
  expireInSeconds: 300,
  cron: dailyCron(dvlaProvider),
  handle: async (_data, ctx) => {
    const rows = await ctx.tx
      .select({ id: caseActivities.id, customerId: caseActivities.customerId })
      .from(caseActivities)
      .innerJoin(activityTypes, eq(activityTypes.id, caseActivities.activityTypeId))
      .where(
        and(
          eq(activityTypes.code, 'driver-data'),
          eq(caseActivities.state, 'ca-in-progress'),
          sql`${caseActivities.resultData}->>'enquiry_code' = 'ENQ037'`,
        ),
      );
    for (const r of rows) {
      await ctx.enqueue({
        name: ENGINE_START_JOB,
        data: { case_activity_id: r.id, customer_id: r.customerId },
      });
    }
  },
});

export const driverDataKind = defineKind<
  DvlaProvider,
  Request,
  DriverEnquiryAnswer,
  never,
  'driver-data'
>({
  code: 'driver-data',
  provider: dvlaProvider,
  trigger: 'submission',
  resultSchema: ACTIVITY_KINDS['driver-data'].result,
  async request(tx, a) {
    const licence = await caseLicenceOf(tx, a.row.caseId);
    if (!licence) return null;
    return {
      enquiry: {
        drivingLicenceNumber: licence.number,
        includeCPC: configFlag(a.row.config, 'include_cpc'),
        includeTacho: configFlag(a.row.config, 'include_tacho'),
        acceptPartialResponse: false,
      },
      mandateDate: licence.mandateDate,
    };
  },
  // the licence number is sensitive: the log keeps what was asked for, not whose
  logged: (r) => ({
    includeCPC: r.enquiry.includeCPC,
    includeTacho: r.enquiry.includeTacho,
    acceptPartialResponse: r.enquiry.acceptPartialResponse,
  }),
  send: (p, r, call) => p.retrieve(r.enquiry, call.signal),
  async answered(ctx, a, processing, request, answer) {
    const mapped = mapEnquiry(answer, {
      previous: readResultData('driver-data', a.row.resultData),
      includeCpc: request.enquiry.includeCPC,
      includeTacho: request.enquiry.includeTacho,
      mandateDate: request.mandateDate,
      checked: today(ctx),
    });
    const { activity } = await saveActivity(
      ctx,
      a,
      { ...processing, last_error: null },
      { state: mapped.state, resultData: a.kind.resultSchema.parse(mapped.resultData) },
    );
    return { row: activity, tracking: false };
  },
  jobs: () => [driverDataSuppressedJob],
  // the record as the kind's schema has it, nothing a hand edit added (subject-view.ts)
  subjectView: subjectDriverData,
});
