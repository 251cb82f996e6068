import { type DriverDataResultData, readResultData } from '@kestrel/domain';

/*
 * What the subject reads of a driver data check (spec point 2: the subject's view is a
 * restricted version of the customer's): the DVLA's record of them as the kind's schema has it
 * (driver, licence, token, endorsements, entitlements, tests, CPCs, DQCs, tacho cards, the
 * mandate and check dates) and the enquiry code the panel words its message from (ENQ018: no
 * record; ENQ037: suppressed). Nothing else: the engine writes only the schema's fields, but a
 * hand edit by operations may add more (who checked, notes), and those are staff-only.
 */
export function subjectDriverData(resultData: unknown): DriverDataResultData {
  return readResultData('driver-data', resultData);
}
