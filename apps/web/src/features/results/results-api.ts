import type {
  ActivityNoteOut,
  ActivityProgressIn,
  ActivityRetryOut,
  AdultFirstRequestOut,
  IdentityCheckOut,
  ServicedStageOut,
} from '@kestrel/domain';
import { type Page, request } from '../../api/client';

/** Which API family a screen calls: the customer's, operations' (/api/ops/) or the subject's. */
export type ApiFamily = 'customer' | 'ops' | 'subject';
const BASE: Record<ApiFamily, string> = { customer: '/api', ops: '/api/ops', subject: '/api/s' };

/** DBS details of a case (spec point 3), read by the criminal-record panels. */
export interface DbsDetails {
  idv_option?: string | null;
  video_call_date?: string | null;
  in_person_expected_date?: string | null;
  discrepancy_notes?: string | null;
  /** pending (awaiting verification), verified (awaiting countersigning), countersigned. */
  state?: string | null;
  verified_by?: string | null;
  countersigned_by?: string | null;
  /** The route the documents met at verification (staff and ops). */
  identity_route?: number | null;
  /** The evidence against the route to meet, as it stands (staff and ops only). */
  identity_check?: IdentityCheckOut;
}

export const dbsDetailsPath = (family: ApiFamily, caseId: number) =>
  `${BASE[family]}/case-dbs-details/${caseId}/`;

export const getDbsDetails = (family: ApiFamily, caseId: number) =>
  request<DbsDetails>('GET', dbsDetailsPath(family, caseId));

/** Verification and countersigning (built with the DBS details: POST .../verify/, .../countersign/). */
export const dbsDetailsAction = (
  family: ApiFamily,
  caseId: number,
  action: 'verify' | 'countersign',
  body: object = {},
) => request<DbsDetails>('POST', `${dbsDetailsPath(family, caseId)}${action}/`, { body });

const opsActivity = (id: number) => `/api/ops/case-activities/${id}/`;

export const saveNotes = (id: number, notes: string) =>
  request<ActivityNoteOut>('POST', `${opsActivity(id)}notes/`, { body: { notes }, expect: 201 });

export const notesHistory = (id: number) =>
  request<Page<ActivityNoteOut>>('GET', `${opsActivity(id)}notes/`, {
    params: { page_size: 100 },
  });

export const getServicedStage = (id: number) =>
  request<ServicedStageOut>('GET', `${opsActivity(id)}serviced-stage/`);

export const postProgress = (id: number, body: ActivityProgressIn) =>
  request<ServicedStageOut>('POST', `${opsActivity(id)}progress/`, { body });

export const patchProcessingData = (id: number, body: Record<string, unknown>) =>
  request<{ id: number; processing_data: Record<string, unknown> }>(
    'PATCH',
    `${opsActivity(id)}processing-data/`,
    { body },
  );

/** Starts again an activity whose start failed (ca-error-initiating); the reason is logged. */
export const retryActivity = (id: number, reason?: string) =>
  request<ActivityRetryOut>('POST', `${opsActivity(id)}retry/`, {
    body: reason ? { reason } : {},
  });

export const requestAdultFirst = (family: 'customer' | 'ops', id: number) =>
  request<AdultFirstRequestOut>(
    'POST',
    `${BASE[family]}/case-activities/${id}/request-adult-first/`,
    {
      expect: 201,
    },
  );
