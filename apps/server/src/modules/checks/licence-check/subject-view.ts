import { type LicenceCheckResultData, readResultData } from '@kestrel/domain';

/*
 * What the subject reads of a driving licence check (spec point 2: the subject's view is a
 * restricted version of the customer's): their licence, its status, dates, address,
 * endorsements and entitlements, and the service's messages; not what staff make of it or do
 * with the service: the risk we grade the driver at, what a re-check found changed (it raises a
 * flag for staff), and the email operations confirmed to the licence-checking service (the Davis
 * email confirmation). Anything outside the kind's schema (a hand edit's extra keys: who checked,
 * notes) is left out too.
 */

/** The fields of a licence check's result only staff see. */
export const LICENCE_CHECK_STAFF_ONLY = [
  'risk',
  'changes',
  'confirmed_email',
  'confirmed_at',
] as const satisfies readonly (keyof LicenceCheckResultData)[];

export type SubjectLicenceCheckData = Omit<
  LicenceCheckResultData,
  (typeof LICENCE_CHECK_STAFF_ONLY)[number]
>;

export function subjectLicenceCheckData(resultData: unknown): SubjectLicenceCheckData {
  const {
    risk: _risk,
    changes: _changes,
    confirmed_email: _email,
    confirmed_at: _at,
    ...own
  } = readResultData('licence-check', resultData);
  return own;
}
