import type {
  ArchivabilityOut,
  CaseActivityOut,
  CaseDetailOut,
  CaseListItemOut,
  SubjectBriefOut,
} from '@kestrel/domain';
import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { notify } from '../lib/notify';
import { request } from './client';
import { actionSuccessMessage, failureMessage } from './messages';
import { defineResource } from './resource';

/** The shapes of the contract (@kestrel/domain contracts/cases.ts), not written again here. */
export type CaseSubjectRef = SubjectBriefOut;
export type CaseListItem = CaseListItemOut;
export type CaseActivity = CaseActivityOut;
export type CaseDetail = CaseDetailOut;

/** Cases: list rows are `CaseListItem`, one case (retrieve, create, update) a `CaseDetail`. */
export const cases = defineResource<CaseListItem, CaseDetail>('/api/cases/', {
  item: 'case',
  plural: 'cases',
});

/**
 * Any customer's case as operations staff see it (GET /api/ops/cases/{id}/, ops only): which
 * customer a case belongs to, so that ops can enter that customer to open it.
 */
export const opsCases = defineResource<CaseListItem, CaseDetail>('/api/ops/cases/', {
  item: 'case',
  plural: 'cases',
});

/** Whether a case may be archived now, and why not (GET /api/cases/{id}/archivable/). */
export const archivableOptions = (id: number | string) =>
  queryOptions({
    queryKey: cases.keys.other('archivable', String(id)),
    queryFn: async () => {
      const r = await request<ArchivabilityOut>('GET', `/api/cases/${id}/archivable/`, {
        expect: 200,
      });
      return r.ok ? r.data : { archivable: false, reason: 'The case could not be checked.' };
    },
  });

/**
 * POST an action on a case (record_decision, cancel, archive, send-reminder). Success toasts
 * 'Successfully updated case' (spec point 8) unless the action names its own text.
 */
export function useCaseAction<T = CaseDetail>(action: string, success?: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: async ({ id, body }: { id: number | string; body?: unknown }) => {
      const r = await request<T>('POST', `/api/cases/${id}/${action}/`, { body: body ?? {} });
      if (!r.ok) {
        const message = failureMessage(r, {
          action: 'update',
          name: cases.names.item,
          showBackendErrors: true,
        });
        if (message) notify.error(message);
        return null;
      }
      notify.success(success ?? actionSuccessMessage('update', cases.names.item));
      await client.invalidateQueries({ queryKey: cases.key });
      return r.data;
    },
  });
}
