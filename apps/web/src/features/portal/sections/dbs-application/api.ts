import type {
  CaseBirthDetailsOut,
  CaseDbsDetailsSubjectOut,
  CaseDbsUpdateDetailsOut,
  CaseDrivingLicenceOut,
  CaseRtwDetailsOut,
  ConsentKind,
  SubjectConsentOut,
} from '@kestrel/domain';
import { queryOptions } from '@tanstack/react-query';
import { type ApiErrorBody, type Method, request } from '../../../../api/client';

/**
 * The subject API calls of the criminal-record, update service, driver data and right-to-work
 * sections (all under /api/s/): case data records by case id, DBS and right-to-work details,
 * and consents. A failed call throws `SectionCallFailure` (a 400 carries `{field: [messages]}`).
 */
export class SectionCallFailure extends Error {
  constructor(
    readonly status: number,
    readonly body: ApiErrorBody,
  ) {
    super(`HTTP ${status}`);
  }
}

async function call<T>(method: Method, path: string, body?: unknown): Promise<T> {
  const r = await request<T>(method, path, body === undefined ? {} : { body });
  if (!r.ok) throw new SectionCallFailure(r.status, r.data);
  return r.data;
}

/** GET of a record that answers 404 until created: null then. */
async function maybe<T>(path: string): Promise<T | null> {
  const r = await request<T>('GET', path, { expect: 200 });
  if (r.ok) return r.data;
  if (r.status === 404) return null;
  throw new SectionCallFailure(r.status, r.data);
}

const s = (resource: string, caseId: number) => `/api/s/${resource}/${caseId}/`;

export const sectionKeys = {
  record: (resource: string, caseId: number) => ['portal-section', resource, caseId] as const,
  consents: ['portal-section', 'consents'] as const,
};

/** A record kept once per case, read (null while there is none) and saved by PATCH or POST. */
export function recordOptions<T>(resource: string, caseId: number, missing: 'blank' | '404') {
  return queryOptions({
    queryKey: sectionKeys.record(resource, caseId),
    queryFn: (): Promise<T | null> =>
      missing === '404' ? maybe<T>(s(resource, caseId)) : call<T>('GET', s(resource, caseId)),
    retry: false,
    staleTime: 0,
  });
}

/** Saves a record: PATCH when it exists (or answers blank), else POST with its case. */
export function saveRecord<T>(
  resource: string,
  caseId: number,
  values: Record<string, unknown>,
  exists: boolean,
): Promise<T> {
  return exists
    ? call<T>('PATCH', s(resource, caseId), values)
    : call<T>('POST', `/api/s/${resource}/`, { ...values, case: caseId });
}

export const birthDetails = (caseId: number) =>
  recordOptions<CaseBirthDetailsOut>('case-birth-details', caseId, 'blank');
export const dbsDetails = (caseId: number) =>
  recordOptions<CaseDbsDetailsSubjectOut>('case-dbs-details', caseId, 'blank');
export const rtwDetails = (caseId: number) =>
  recordOptions<CaseRtwDetailsOut>('case-rtw-details', caseId, 'blank');
export const dbsUpdateDetails = (caseId: number) =>
  recordOptions<CaseDbsUpdateDetailsOut>('case-dbs-update-details', caseId, '404');
export const drivingLicence = (caseId: number) =>
  recordOptions<CaseDrivingLicenceOut>('case-driving-licences', caseId, '404');

// Consents --------------------------------------------------------------------------------------

export const consentsOptions = () =>
  queryOptions({
    queryKey: sectionKeys.consents,
    queryFn: async (): Promise<SubjectConsentOut[]> => {
      const data = await call<unknown>('GET', '/api/s/consents/');
      if (Array.isArray(data)) return data;
      if (typeof data === 'object' && data !== null && 'results' in data) {
        return Array.isArray(data.results) ? data.results : [];
      }
      return [];
    },
    retry: false,
    staleTime: 0,
  });

/** The person's active consent of `kind` for this activity, if any. */
export function activeConsent(
  consents: readonly SubjectConsentOut[] | undefined,
  caseActivity: number | null,
  kind: ConsentKind,
): SubjectConsentOut | null {
  return (
    consents?.find(
      (c) =>
        c.case_activity === caseActivity &&
        c.kind === kind &&
        (c.status === 'active' || c.status === 'expiring'),
    ) ?? null
  );
}

/** POST /api/s/consents/ {case, case_activity, kind}. */
export function giveConsent(
  caseId: number,
  caseActivity: number,
  kind: ConsentKind,
): Promise<SubjectConsentOut> {
  return call<SubjectConsentOut>('POST', '/api/s/consents/', {
    case: caseId,
    case_activity: caseActivity,
    kind,
  });
}
