import type {
  ApplicationApplyOut,
  PublicApplicationPortalOut,
  publicCustomerOut,
  publicLicenceGroupOut,
  publicLicenceSubGroupOut,
  SubjectApplicationOut,
  SubjectApplicationPortalOut,
} from '@kestrel/domain';
import { queryOptions } from '@tanstack/react-query';
import type { z } from 'zod';
import { type ApiErrorBody, type Page, request } from '../../api/client';

export type PublicCouncil = z.infer<typeof publicCustomerOut>;
export type PublicGroup = z.infer<typeof publicLicenceGroupOut>;
export type PublicSubGroup = z.infer<typeof publicLicenceSubGroupOut>;
export type { PublicApplicationPortalOut, SubjectApplicationOut, SubjectApplicationPortalOut };

/** A load that never throws: the data, or why not (404 missing, 429 busy, else failed). */
export type Loaded<T> =
  | { state: 'ready'; data: T }
  | { state: 'missing' }
  | { state: 'busy' }
  | { state: 'failed' };

async function get<T>(path: string, params?: Record<string, string | number>): Promise<Loaded<T>> {
  const r = await request<T>('GET', path, { params, expect: 200 });
  if (r.ok) return { state: 'ready', data: r.data };
  if (r.status === 404) return { state: 'missing' };
  return r.status === 429 ? { state: 'busy' } : { state: 'failed' };
}

const PUBLIC = '/api/lms/public';
// Councils publish a handful of groups, sub-groups and portals: one page holds them all.
const ALL = { page_size: 100 };
// Published data changes rarely: a visitor going back and forth asks once.
const staleTime = 5 * 60_000;

/** GET /api/lms/public/... (published data only, anyone may read it). */
export const lmsPublic = {
  councils: () =>
    queryOptions({
      queryKey: ['lms-public', 'councils'],
      queryFn: () => get<Page<PublicCouncil>>(`${PUBLIC}/customers/`, ALL),
      staleTime,
    }),
  council: (id: string) =>
    queryOptions({
      queryKey: ['lms-public', 'council', id],
      queryFn: () => get<PublicCouncil>(`${PUBLIC}/customers/${encodeURIComponent(id)}/`),
      staleTime,
    }),
  groups: (council: string) =>
    queryOptions({
      queryKey: ['lms-public', 'groups', council],
      queryFn: () =>
        get<Page<PublicGroup>>(`${PUBLIC}/licence-groups/`, { ...ALL, customer: council }),
      staleTime,
    }),
  group: (id: string) =>
    queryOptions({
      queryKey: ['lms-public', 'group', id],
      queryFn: () => get<PublicGroup>(`${PUBLIC}/licence-groups/${encodeURIComponent(id)}/`),
      staleTime,
    }),
  subGroups: (group: string) =>
    queryOptions({
      queryKey: ['lms-public', 'sub-groups', group],
      queryFn: () => get<Page<PublicSubGroup>>(`${PUBLIC}/licence-sub-groups/`, { ...ALL, group }),
      staleTime,
    }),
  subGroup: (id: string) =>
    queryOptions({
      queryKey: ['lms-public', 'sub-group', id],
      queryFn: () => get<PublicSubGroup>(`${PUBLIC}/licence-sub-groups/${encodeURIComponent(id)}/`),
      staleTime,
    }),
  portals: (subGroup: string) =>
    queryOptions({
      queryKey: ['lms-public', 'portals', subGroup],
      queryFn: () =>
        get<Page<PublicApplicationPortalOut>>(`${PUBLIC}/application-portals/`, {
          ...ALL,
          sub_group: subGroup,
        }),
      staleTime,
    }),
  portal: (id: string) =>
    queryOptions({
      queryKey: ['lms-public', 'portal', id],
      queryFn: () =>
        get<PublicApplicationPortalOut>(`${PUBLIC}/application-portals/${encodeURIComponent(id)}/`),
      staleTime,
    }),
};

const SUBJECT = '/api/lms/s';
const applicationsKey = ['lms-subject', 'applications'];

/** The signed-in subject's side: a portal with their tax check and application, their applications. */
export const lmsSubject = {
  portal: (id: string) =>
    queryOptions({
      queryKey: ['lms-subject', 'portal', id],
      queryFn: () =>
        get<SubjectApplicationPortalOut>(
          `${SUBJECT}/application-portals/${encodeURIComponent(id)}/`,
        ),
    }),
  applicationsKey,
  application: (id: string) =>
    queryOptions({
      queryKey: [...applicationsKey, id],
      queryFn: () =>
        get<SubjectApplicationOut>(`${SUBJECT}/applications/${encodeURIComponent(id)}/`),
    }),
  applications: () =>
    queryOptions({
      queryKey: applicationsKey,
      queryFn: () => get<Page<SubjectApplicationOut>>(`${SUBJECT}/applications/`, ALL),
    }),
};

export interface ApplyBody {
  tax_check_code?: string;
  tax_responsibilities_confirmed?: boolean;
  holds_licence_elsewhere?: boolean;
}

export type Sent<T> = { ok: true; data: T } | { ok: false; status: number; errors: ApiErrorBody };

/** POST /api/lms/s/application-portals/{id}/apply/ → the application and where to go next. */
export async function applyOnPortal(
  id: string,
  body: ApplyBody,
): Promise<Sent<ApplicationApplyOut>> {
  const r = await request<ApplicationApplyOut>(
    'POST',
    `${SUBJECT}/application-portals/${encodeURIComponent(id)}/apply/`,
    { body },
  );
  return r.ok ? { ok: true, data: r.data } : { ok: false, status: r.status, errors: r.data };
}

/** POST /api/lms/s/applications/{id}/respond/ {message}: the answer to the council's question. */
export async function respondToRequest(
  id: number,
  message: string,
): Promise<Sent<SubjectApplicationOut | null>> {
  const r = await request<SubjectApplicationOut | null>(
    'POST',
    `${SUBJECT}/applications/${id}/respond/`,
    { body: { message } },
  );
  return r.ok ? { ok: true, data: r.data } : { ok: false, status: r.status, errors: r.data };
}

/** The messages of a 400 body for one field (or the form: non_field_errors and detail). */
export function messagesOf(errors: ApiErrorBody, field: string): string[] {
  const value = errors[field];
  if (Array.isArray(value)) return value.filter((m): m is string => typeof m === 'string');
  return typeof value === 'string' ? [value] : [];
}
