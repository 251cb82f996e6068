import type {
  CaseRetentionOut,
  DueRedactionOut,
  RetentionSettingsIn,
  RetentionSettingsOut,
} from '@kestrel/domain';
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type ApiResult, request } from '../../api/client';

export const SETTINGS_PATH = '/api/customer-account/retention/';
export const DUE_PATH = '/api/customer-account/retention/due/';
const caseRetentionPath = (caseId: number) => `/api/cases/${caseId}/retention/`;

const data = async <T>(p: Promise<ApiResult<T>>): Promise<T> => {
  const r = await p;
  if (!r.ok) throw new Error(String(r.status));
  return r.data;
};

export const retentionSettingsOptions = () =>
  queryOptions({
    queryKey: [SETTINGS_PATH],
    queryFn: () => data(request<RetentionSettingsOut>('GET', SETTINGS_PATH)),
  });

export const dueRedactionsOptions = () =>
  queryOptions({
    queryKey: [DUE_PATH],
    queryFn: async () =>
      (await data(request<{ results: DueRedactionOut[] }>('GET', DUE_PATH))).results,
  });

export function useSaveRetentionSettings() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: RetentionSettingsIn) =>
      request<RetentionSettingsOut>('PUT', SETTINGS_PATH, { body }),
    onSuccess: async () => {
      await client.invalidateQueries({ queryKey: [SETTINGS_PATH] });
      await client.invalidateQueries({ queryKey: [DUE_PATH] });
    },
  });
}

/** A case's legal hold, end of employment and redactions (staff of its customer). */
export function useCaseRetention(caseId: number | null, enabled = true) {
  return useQuery({
    queryKey: ['case-retention', caseId],
    enabled: enabled && caseId !== null,
    queryFn: () => data(request<CaseRetentionOut>('GET', caseRetentionPath(caseId ?? 0))),
    retry: false,
  });
}

export function useCaseRetentionAction(caseId: number) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (
      action:
        | { kind: 'hold' | 'lift'; reason: string }
        | { kind: 'employment-end'; endedOn: string | null },
    ) =>
      action.kind === 'employment-end'
        ? request<CaseRetentionOut>('PUT', `/api/cases/${caseId}/employment-end/`, {
            body: { employment_ended_on: action.endedOn },
          })
        : request<CaseRetentionOut>(
            'POST',
            `/api/cases/${caseId}/legal-hold/${action.kind === 'lift' ? 'lift/' : ''}`,
            { body: { reason: action.reason } },
          ),
    onSuccess: async () => {
      await client.invalidateQueries({ queryKey: ['case-retention', caseId] });
    },
  });
}
