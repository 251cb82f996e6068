import type { CaseDrivingLicenceOut, CasePassportOut } from '@kestrel/domain';
import { defineCaseRecord } from './case-data';

/** A case's passport; retrieve answers 404 until it is added (the screen treats it as new). */
export type CasePassport = CasePassportOut;
/** A case's driving licence; 404 until added. */
export type CaseDrivingLicence = CaseDrivingLicenceOut;

export const casePassports = defineCaseRecord<CasePassport>('case-passports', 'passport');
export const caseDrivingLicences = defineCaseRecord<CaseDrivingLicence>(
  'case-driving-licences',
  'driving licence',
);
