import type { CaseBasicDetailsOut, CaseBirthDetailsOut } from '@kestrel/domain';
import { defineCaseRecord } from './case-data';

/** The shapes of the contracts (@kestrel/domain contracts/case-basic-details.ts, ...). */
export type CaseBasicDetails = CaseBasicDetailsOut;
export type CaseBirthDetails = CaseBirthDetailsOut;

/** A case without stored details answers them prefilled from its subject. */
export const caseBasicDetails = defineCaseRecord<CaseBasicDetails>(
  'case-basic-details',
  'basic details',
);
export const caseBirthDetails = defineCaseRecord<CaseBirthDetails>(
  'case-birth-details',
  'birth details',
);
