import type { DrivingLicence, Passport } from '@kestrel/domain';
import { defineCaseRecord } from './case-data';

type Saved<T> = { [K in keyof T]?: T[K] | null };

/** A case's passport; retrieve answers 404 until it is added (the screen treats it as new). */
export type CasePassport = Saved<Passport> & { case: number; source: 'manual' | 'idsp' };
/** A case's driving licence; 404 until added. */
export type CaseDrivingLicence = Saved<DrivingLicence> & {
  case: number;
  source: 'manual' | 'idsp';
};

export const casePassports = defineCaseRecord<CasePassport>('case-passports', 'passport');
export const caseDrivingLicences = defineCaseRecord<CaseDrivingLicence>(
  'case-driving-licences',
  'driving licence',
);
