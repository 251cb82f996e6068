import { NotFoundError } from '../../platform/errors.js';
import { allowSubjectCase } from '../../platform/subject-access.js';

export { SUBMITTED_DETAIL } from '../../platform/subject-access.js';

/**
 * Who is reading or writing case data: customer staff (/api/, tenant by RLS), operations
 * (/api/ops/, every customer) or the subject (/api/s/, its own cases by RLS).
 */
export type CaseDataAudience = 'staff' | 'ops' | 'subject';

/** The case a record belongs to, as the access rules read it. */
export interface CaseRef {
  id: number;
  customerId: number;
  subjectId: number;
  state: string;
  /** The portal's progress: `review` once the subject submitted it. */
  portalLastCompletedSection: string | null;
  archived: boolean;
}

/** SQL columns giving a CaseRef from `cases c` (see `caseRefOf`). */
export const CASE_REF_COLUMNS =
  'c.id as case_ref_id, c.customer_id as case_ref_customer, c.subject_id as case_ref_subject, c.state as case_ref_state, c.portal_last_completed_section as case_ref_portal, (c.archived_at is not null) as case_ref_archived';

/** The CaseRef of a row selected with `CASE_REF_COLUMNS`, or null when there is none. */
export function caseRefOf(row: Record<string, unknown> | undefined): CaseRef | null {
  if (!row || row.case_ref_id === null || row.case_ref_id === undefined) return null;
  return {
    id: Number(row.case_ref_id),
    customerId: Number(row.case_ref_customer),
    subjectId: Number(row.case_ref_subject),
    state: String(row.case_ref_state),
    portalLastCompletedSection:
      row.case_ref_portal === null || row.case_ref_portal === undefined
        ? null
        : String(row.case_ref_portal),
    archived: row.case_ref_archived === true,
  };
}

/**
 * The case if this audience may read it (or write it, with `write`); 404 otherwise. RLS already
 * hides other tenants' cases and, from a subject, other subjects'. For a subject, the subject
 * access policy decides (platform/subject-access.ts: its open cases only, no write once
 * submitted, 403); the runner (`runForCaseRequest`) has checked the section already.
 */
export function allowCase(
  ref: CaseRef | null,
  audience: CaseDataAudience,
  intent: 'read' | 'write',
): CaseRef {
  if (!ref) throw new NotFoundError();
  if (audience === 'subject') allowSubjectCase({ ...ref, sections: [] }, intent);
  return ref;
}
