import type { CaseDataAudience } from '../../api/case-data';

/** What every section is given: the case, who calls (customer or ops API), and whether it may write. */
export interface SectionProps {
  caseId: number | string;
  audience: CaseDataAudience;
  /** Without the right to change the case, the section is shown read-only. */
  readOnly: boolean;
}
