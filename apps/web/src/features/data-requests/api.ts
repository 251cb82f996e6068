import type {
  ErasureDecision,
  ErasureOutcomeOut,
  ErasureRequestCreate,
  ErasureRequestOut,
  ErasureState,
  SubjectErasureRequestCreate,
  SubjectErasureRequestOut,
} from '@kestrel/domain';
import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { type ApiResult, type Page, request } from '../../api/client';

/**
 * Erasure requests and the subject access archive (issue 34; server module data-requests). The
 * answers' shapes are the domain's contracts (contracts/data-requests.ts).
 */

export type { ErasureState };
export type ErasureOutcome = ErasureOutcomeOut;
export type ErasureRequest = ErasureRequestOut;
export type SubjectErasureRequest = SubjectErasureRequestOut;

/** Where a customer's staff download a subject's archive; the subject its own. */
export const archiveHref = (subjectId: number) => `/api/subjects/${subjectId}/data-archive/`;
export const OWN_ARCHIVE_HREF = '/api/s/data-archive/';

const empty = <T>(): Page<T> => ({ count: 0, next: null, previous: null, results: [] });

async function pageOf<T>(path: string, params?: Record<string, string | number>) {
  const res = await request<Page<T>>('GET', path, params ? { params } : {});
  return res.ok ? res.data : empty<T>();
}

export const erasureKeys = { all: ['erasure-requests'] as const };

export const erasureListOptions = (filters: { state?: ErasureState; subject?: number } = {}) =>
  queryOptions({
    queryKey: [...erasureKeys.all, 'list', filters],
    queryFn: () =>
      pageOf<ErasureRequest>('/api/erasure-requests/', {
        ...(filters.state ? { state: filters.state } : {}),
        ...(filters.subject ? { subject: filters.subject } : {}),
        page_size: 100,
      }),
  });

export const ownErasureOptions = () =>
  queryOptions({
    queryKey: [...erasureKeys.all, 'own'],
    queryFn: () => pageOf<SubjectErasureRequest>('/api/s/erasure-requests/'),
  });

/**
 * A call that refreshes what is on screen once it answered: an erasure changes the subject's
 * record, its cases' data and documents, not only the requests.
 */
function useErasureCall<B, T>(call: (body: B) => Promise<ApiResult<T>>) {
  const qc = useQueryClient();
  return useMutation({ mutationFn: call, onSettled: () => qc.invalidateQueries() });
}

export const useRecordErasure = () =>
  useErasureCall((body: ErasureRequestCreate) =>
    request<ErasureRequest>('POST', '/api/erasure-requests/', { body, expect: 201 }),
  );

export const useDecideErasure = () =>
  useErasureCall((b: ErasureDecision & { id: number }) =>
    request<ErasureRequest>('POST', `/api/erasure-requests/${b.id}/decide/`, {
      body: { decision: b.decision, reason: b.reason },
      expect: 200,
    }),
  );

export const useAskErasure = () =>
  useErasureCall((body: SubjectErasureRequestCreate) =>
    request<Page<SubjectErasureRequest>>('POST', '/api/s/erasure-requests/', {
      body,
      expect: 201,
    }),
  );

/** The first message of an error answer (`detail` or a field's). */
export function errorText(data: Record<string, unknown>): string {
  if (typeof data.detail === 'string') return data.detail;
  for (const v of Object.values(data)) {
    if (Array.isArray(v) && typeof v[0] === 'string') return v[0];
  }
  return 'Something went wrong. Try again.';
}

const TABLE_WORDS: Record<string, string> = {
  case_basic_details: 'Basic details',
  case_birth_details: 'Birth details',
  case_other_names: 'Other names',
  case_addresses: 'Addresses',
  case_passports: 'Passport details',
  case_driving_licences: 'Driving licence details',
  case_dbs_details: 'DBS application details',
  case_dbs_update_details: 'DBS update service details',
  case_rtw_details: 'Right to work details',
  case_online_idv: 'Online identity profiles',
  case_documents: 'Documents (files and thumbnails)',
  checks_cancelled: 'Checks in progress cancelled',
  cases_closed: 'Open cases cancelled',
  subscriptions_ended: 'Subscriptions ended',
  applications_withdrawn: 'Open licence applications withdrawn',
  activity_notes: 'Check notes',
  decision_notes: 'Decision notes',
  flags: 'Flag messages and comments',
  lms_applications: 'Licence applications (tax check and information requests)',
  licences: 'Licence conditions',
  portal_registrations: 'Portal registrations',
  subjects: "The subject's name, email, date of birth and phone",
};

/** What an erasure removed, in words: one line per kind of data. */
export function removedLines(outcome: ErasureOutcome): string[] {
  const lines = Object.entries(outcome.removed).map(
    ([table, n]) => `${TABLE_WORDS[table] ?? table}${table === 'subjects' ? '' : `: ${n}`}`,
  );
  if (outcome.files > 0) lines.push(`Files removed from storage: ${outcome.files}`);
  if (outcome.results > 0) lines.push(`Check results redacted: ${outcome.results}`);
  if (outcome.sign_in === 'disabled') lines.push('Sign-in closed');
  if (outcome.sign_in === 'kept') lines.push('Sign-in kept (another organisation holds them)');
  return lines;
}
