import type { ActivityConfig } from '@kestrel/domain';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { request } from '../../../api/client';
import { failureMessage, MESSAGES_UI } from '../../../api/messages';
import { defineResource } from '../../../api/resource';
import { notify } from '../../../lib/notify';

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

export const cases = defineResource<CaseListItem>('/api/cases/', {
  item: 'case',
  plural: 'cases',
});
/** The same endpoint, typed as the detail answer. */
export const caseDetails = defineResource<CaseDetail>('/api/cases/', {
  item: 'case',
  plural: 'cases',
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
