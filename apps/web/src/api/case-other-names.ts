import type { CaseOtherNameOut } from '@kestrel/domain';
import { defineCaseList } from './case-data';

export type CaseOtherName = CaseOtherNameOut;

/** The subject's other names: list by case, create with `case`, partial update, delete. */
export const caseOtherNames = defineCaseList<CaseOtherName>('case-other-names', 'other name');
