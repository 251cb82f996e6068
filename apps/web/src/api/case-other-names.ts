import type { OtherName } from '@kestrel/domain';
import { defineCaseList } from './case-data';

export type CaseOtherName = { [K in keyof OtherName]?: OtherName[K] | null } & {
  id: number;
  case: number;
  source?: 'manual' | 'idsp';
};

/** The subject's other names: list by case, create with `case`, partial update, delete. */
export const caseOtherNames = defineCaseList<CaseOtherName>('case-other-names', 'other name');
