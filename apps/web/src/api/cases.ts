import type { ActivityConfig } from '@kestrel/domain';
import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { notify } from '../lib/notify';
import { request } from './client';
import { failureMessage, MESSAGES_UI } from './messages';
import { defineResource } from './resource';

export interface CaseSubjectRef {
  id: number;
  first_name: string;
  last_name: string;
  email: string;
}

export interface CaseListItem {
  id: number;
  state: string;
  state_display: string;
  process: { id: number; name: string };
  subject: CaseSubjectRef;
  created_at: string;
  updated_at: string;
  completed_at: string | null;
  decision: 'satisfactory' | 'unsatisfactory' | null;
  is_archived: boolean;
  flagged: boolean;
}

export interface CaseActivity {
  id: number;
  state: string;
  state_display: string;
  activity_type: string;
  activity_type_name: string;
  key: string;
  config: ActivityConfig;
  result_data: Record<string, unknown> | null;
  processing_data: Record<string, unknown> | null;
  notes: string;
  created_at: string;
  updated_at: string;
  completed_at: string | null;
}

export interface CaseDetail extends Omit<CaseListItem, 'subject'> {
  subject: CaseSubjectRef & {
    middlename: string;
    dob: string | null;
    phone_number: string;
    has_account: boolean;
  };
  decision_notes: string;
  cancelled_reason: string;
  archived_at: string | null;
  summary: { activities: number; open: number; complete: number; cancelled: number };
  case_activities: CaseActivity[];
  archivable: boolean;
}

/** Cases: list rows are `CaseListItem`, one case (retrieve, create, update) a `CaseDetail`. */
export const cases = defineResource<CaseListItem, CaseDetail>('/api/cases/', {
  item: 'case',
  plural: 'cases',
});

/** Whether a case may be archived now, and why not (GET /api/cases/{id}/archivable/). */
export const archivableOptions = (id: number | string) =>
  queryOptions({
    queryKey: cases.keys.other('archivable', String(id)),
    queryFn: async () => {
      const r = await request<{ archivable: boolean; reason: string | null }>(
        'GET',
        `/api/cases/${id}/archivable/`,
        { expect: 200 },
      );
      return r.ok ? r.data : { archivable: false, reason: 'The case could not be checked.' };
    },
  });

/** POST an action on a case (record_decision, cancel, archive, send-reminder). */
export function useCaseAction<T = CaseDetail>(action: string, success?: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: async ({ id, body }: { id: number | string; body?: unknown }) => {
      const r = await request<T>('POST', `/api/cases/${id}/${action}/`, { body: body ?? {} });
      if (!r.ok) {
        const message = failureMessage(r, { showBackendErrors: true });
        if (message) notify.error(message);
        return null;
      }
      notify.success(success ?? MESSAGES_UI.defaultSuccess);
      await client.invalidateQueries({ queryKey: cases.key });
      return r.data;
    },
  });
}
