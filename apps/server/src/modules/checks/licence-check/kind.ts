import { ACTIVITY_KINDS, readResultData } from '@kestrel/domain';
import type {
  DavisCheck,
  DavisDriverIn,
  DavisProvider,
} from '../../../providers/davis/provider.js';
import { maskIdentifier } from '../../encryption/mask.js';
import { saveActivity, today } from '../activity.js';
import { caseLicenceOf } from '../driver-data/case-licence.js';
import { defineKind } from '../kind.js';
import { applyCheck } from './apply.js';
import { davisCheckSchema, isTracked, mapCheck } from './check.js';
import { licenceCheckRoutes } from './davis-email.js';
import { licenceCheckJobs } from './jobs.js';
import { davisProvider } from './providers.js';
import { subjectLicenceCheckData } from './subject-view.js';

/*
 * The driving licence check (a licence-checking service of the Davis kind): the subject's
 * licence number and DVLA mandate from the portal's driver-data section, their names, date of
 * birth and email (the one operations confirmed, if they did) go to the service once; its check
 * is polled while it waits for the DVLA (AwaitingCheck) or a manual DVLA response (DQ3, 14-28
 * working days); EmailUnconfirmed waits for operations' Davis email confirmation (davis-email.ts);
 * a completed check sets risk, licence data and the next check date, by which the kind's
 * scheduled job checks again (jobs.ts): a re-check that finds a change raises a flag on the case.
 */

export const licenceCheckKind = defineKind<
  DavisProvider,
  DavisDriverIn,
  DavisCheck,
  DavisCheck,
  'licence-check'
>({
  code: 'licence-check',
  provider: davisProvider,
  trigger: 'submission',
  resultSchema: ACTIVITY_KINDS['licence-check'].result,
  async request(tx, a) {
    const licence = await caseLicenceOf(tx, a.row.caseId);
    if (!licence || !a.processing) return null;
    const confirmed = readResultData('licence-check', a.row.resultData).confirmed_email;
    return {
      reference: a.processing.idempotency_key,
      licence_number: licence.number,
      forename: licence.forename,
      surname: licence.surname,
      dob: licence.dob,
      email: confirmed || licence.email,
      mandate_date: licence.mandateDate,
    };
  },
  // the licence number and the person stay out of the log
  logged: (d) => ({ reference: d.reference, mandate_date: d.mandate_date }),
  send: (p, d, call) => p.register(d, call.signal),
  async answered(ctx, a, processing, driver, check) {
    const previous = readResultData('licence-check', a.row.resultData);
    const mapped = mapCheck(check, previous, today(ctx), driver.mandate_date);
    const { activity } = await saveActivity(
      ctx,
      a,
      { ...processing, reference: check.driver_id, last_error: null },
      {
        state: mapped.state,
        resultData: a.kind.resultSchema.parse({
          ...mapped.resultData,
          // the number masked, as the service's answers have it (providers.ts)
          licence: mapped.resultData.licence ?? { number: maskIdentifier(driver.licence_number) },
        }),
      },
    );
    return { row: activity, tracking: isTracked(check.status) };
  },
  tracking: {
    status: (p, driverId, call) => p.check(driverId, call.signal),
    update: davisCheckSchema,
    apply: (ctx, a, processing, check) => applyCheck(ctx, a, processing, check),
  },
  jobs: licenceCheckJobs,
  // operations' Davis email confirmation (davis-email.ts)
  routes: licenceCheckRoutes,
  // no risk, re-check changes or Davis email confirmation for the subject (subject-view.ts)
  subjectView: subjectLicenceCheckData,
});
