import type {
  TrustToRideAttendance,
  TrustToRideBookingOut,
  TrustToRideSessionDetailOut,
  TrustToRideSessionIn,
  TrustToRideSessionOut,
  TrustToRideSessionUpdate,
} from '@kestrel/domain';
import { type Page, request } from '../../api/client';

/** Operations' trust-to-ride calls (/api/ops/trust-to-ride/). */
const BASE = '/api/ops/trust-to-ride';

export interface UnbookedActivity {
  id: number;
  case: number;
  customer: number;
  subject: { id: number; name: string; email: string };
}

export const listSessions = (params: {
  when: 'upcoming' | 'past';
  customer?: number;
  page: number;
}) =>
  request<Page<TrustToRideSessionOut>>('GET', `${BASE}/sessions/`, {
    params: {
      when: params.when,
      page: params.page,
      ...(params.customer ? { customer: params.customer } : {}),
    },
  });

export const getSession = (id: number) =>
  request<TrustToRideSessionDetailOut>('GET', `${BASE}/sessions/${id}/`);

export const addSession = (body: TrustToRideSessionIn) =>
  request<TrustToRideSessionDetailOut>('POST', `${BASE}/sessions/`, { body, expect: 201 });

export const editSession = (id: number, body: TrustToRideSessionUpdate) =>
  request<TrustToRideSessionDetailOut>('PUT', `${BASE}/sessions/${id}/`, { body });

export const bookPlace = (session: number, caseActivity: number) =>
  request<TrustToRideBookingOut>('POST', `${BASE}/bookings/`, {
    body: { session, case_activity: caseActivity },
    expect: 201,
  });

export const recordAttendance = (booking: number, attendance: TrustToRideAttendance) =>
  request<TrustToRideBookingOut>('POST', `${BASE}/bookings/${booking}/attendance/`, {
    body: { attendance },
  });

export const unbookedActivities = (customer: number) =>
  request<{ results: UnbookedActivity[] }>('GET', `${BASE}/unbooked-activities/`, {
    params: { customer },
  });

/** Field messages of a 400 answer, by field. */
export function fieldMessages(data: Record<string, unknown>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(data)) {
    if (Array.isArray(v)) out[k] = v.join(' ');
    else if (typeof v === 'string' && k === 'detail') out.non_field_errors = v;
  }
  return out;
}
