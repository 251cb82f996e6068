import type { BasicDetails, BirthDetails } from '@kestrel/domain';
import { defineCaseRecord } from './case-data';

/** What retrieve answers: the saved fields (blank ones null) and the subject's email. */
export type CaseBasicDetails = { [K in keyof BasicDetails]?: BasicDetails[K] | null } & {
  case: number;
  email: string;
  /** Fields the identity check verified (source idsp): read-only. */
  locked_fields?: string[];
};
export type CaseBirthDetails = { [K in keyof BirthDetails]?: BirthDetails[K] | null } & {
  case: number;
  locked_fields?: string[];
};

export const caseBasicDetails = defineCaseRecord<CaseBasicDetails>(
  'case-basic-details',
  'basic details',
);
export const caseBirthDetails = defineCaseRecord<CaseBirthDetails>(
  'case-birth-details',
  'birth details',
);
