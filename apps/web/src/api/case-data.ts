import { actionSuccessText } from '@kestrel/domain';
import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { notify } from '../lib/notify';
import { type ApiErrorBody, type Page, request } from './client';

/**
 * The case data resources (spec points 3, 4 and 7): four records kept once per case (basic and
 * birth details, passport, driving licence), retrieved and updated by case id, and two lists
 * (other names, addresses) filtered by `?case=`. Customer staff call `/api/...`, the subject (case portal) `/api/s/...`, operations
 * `/api/ops/...`; the rules are the same.
 *
 * A failed load or save only sets the section's error state: no message is shown (point 8). A
 * save that works toasts 'Successfully updated {item}'.
 */
export type CaseDataAudience = 'customer' | 'ops' | 'subject';

/** The subject (case portal) calls the same resources under `/api/s/`. */
export const caseDataBase = (audience: CaseDataAudience) =>
  audience === 'ops' ? '/api/ops/' : audience === 'subject' ? '/api/s/' : '/api/';

/** A failed call of a case data section: its status and `{field: [messages]}` body. */
export class SectionFailure extends Error {
  constructor(
    readonly status: number,
    readonly body: ApiErrorBody,
  ) {
    super(`HTTP ${status}`);
  }
}

const caseDataKey = (audience: CaseDataAudience, resource: string, caseId: number | string) =>
  ['case-data', audience, resource, String(caseId)] as const;

/** Every case data query of one case (to refresh them all). */
export const caseDataKeys = {
  all: ['case-data'] as const,
  of: caseDataKey,
};

export interface CaseRecord<T> {
  resource: string;
  item: string;
  path: (audience: CaseDataAudience, caseId?: number | string) => string;
  options: (
    caseId: number | string,
    audience: CaseDataAudience,
  ) => ReturnType<typeof recordOptions<T>>;
}

function recordOptions<T>(
  resource: string,
  url: string,
  caseId: number | string,
  audience: CaseDataAudience,
) {
  return queryOptions({
    queryKey: caseDataKey(audience, resource, caseId),
    queryFn: async (): Promise<T | null> => {
      const r = await request<T>('GET', url, { expect: 200 });
      if (r.ok) return r.data;
      if (r.status === 404) return null;
      throw new SectionFailure(r.status, r.data);
    },
    retry: false,
  });
}

/** A record kept once per case. `null` when it does not exist yet (404: the screen treats it as new). */
export function defineCaseRecord<T>(resource: string, item: string): CaseRecord<T> {
  const path = (audience: CaseDataAudience, caseId?: number | string) =>
    `${caseDataBase(audience)}${resource}/${caseId === undefined ? '' : `${caseId}/`}`;
  return {
    resource,
    item,
    path,
    options: (caseId, audience) =>
      recordOptions<T>(resource, path(audience, caseId), caseId, audience),
  };
}

/** PUT when the record exists, otherwise POST with `case` (201); the cache then holds the answer. */
export function useSaveCaseRecord<T>(
  record: CaseRecord<T>,
  caseId: number | string,
  audience: CaseDataAudience,
) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: async ({ values, exists }: { values: object; exists: boolean }) => {
      const r = exists
        ? await request<T>('PUT', record.path(audience, caseId), { body: values, expect: 200 })
        : await request<T>('POST', record.path(audience), {
            body: { ...values, case: Number(caseId) },
            expect: 201,
          });
      if (!r.ok) throw new SectionFailure(r.status, r.data);
      return r.data;
    },
    onSuccess: (data) => {
      client.setQueryData(caseDataKey(audience, record.resource, caseId), data);
      notify.success(actionSuccessText('update', record.item));
    },
  });
}

/** What a case list answers: a page, and for addresses the gaps of the 60-month window. */
export type CaseListPage<T, Extra = object> = Page<T> & Extra;

export interface CaseList<T, Extra = object> {
  resource: string;
  item: string;
  path: (audience: CaseDataAudience, id?: number) => string;
  options: (
    caseId: number | string,
    audience: CaseDataAudience,
  ) => ReturnType<typeof listOptions<T, Extra>>;
}

function listOptions<T, Extra>(
  resource: string,
  url: string,
  caseId: number | string,
  audience: CaseDataAudience,
) {
  return queryOptions({
    queryKey: caseDataKey(audience, resource, caseId),
    queryFn: async (): Promise<CaseListPage<T, Extra>> => {
      const r = await request<CaseListPage<T, Extra>>('GET', url, {
        params: { case: String(caseId), page_size: 100 },
        expect: 200,
      });
      if (r.ok) return r.data;
      throw new SectionFailure(r.status, r.data);
    },
    retry: false,
  });
}

/** A list of rows per case (`?case=ID`): create with `case`, partial update, delete. */
export function defineCaseList<T extends { id: number }, Extra = object>(
  resource: string,
  item: string,
): CaseList<T, Extra> {
  const path = (audience: CaseDataAudience, id?: number) =>
    `${caseDataBase(audience)}${resource}/${id === undefined ? '' : `${id}/`}`;
  return {
    resource,
    item,
    path,
    options: (caseId, audience) =>
      listOptions<T, Extra>(resource, path(audience), caseId, audience),
  };
}

function useRowMutation<V>(
  key: readonly unknown[],
  call: (v: V) => Promise<{ ok: boolean; status: number; data: unknown }>,
  success: (v: V) => string,
) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: async (v: V) => {
      const r = await call(v);
      if (!r.ok) {
        const body = typeof r.data === 'object' && r.data !== null ? (r.data as ApiErrorBody) : {};
        throw new SectionFailure(r.status, body);
      }
      return r.data;
    },
    onSuccess: async (_data, v) => {
      notify.success(success(v));
      await client.invalidateQueries({ queryKey: key });
    },
  });
}

/** POST with `case` when there is no id (201), otherwise PATCH (200). */
export function useSaveCaseRow<T, Extra>(
  list: CaseList<T, Extra>,
  caseId: number | string,
  audience: CaseDataAudience,
) {
  return useRowMutation<{ id?: number; values: object }>(
    caseDataKey(audience, list.resource, caseId),
    ({ id, values }) =>
      id === undefined
        ? request<T>('POST', list.path(audience), {
            body: { ...values, case: Number(caseId) },
            expect: 201,
          })
        : request<T>('PATCH', list.path(audience, id), { body: values, expect: 200 }),
    ({ id }) => actionSuccessText(id === undefined ? 'add' : 'update', list.item),
  );
}

export function useDeleteCaseRow<T, Extra>(
  list: CaseList<T, Extra>,
  caseId: number | string,
  audience: CaseDataAudience,
) {
  return useRowMutation<number>(
    caseDataKey(audience, list.resource, caseId),
    (id) => request<null>('DELETE', list.path(audience, id), { expect: 204 }),
    () => actionSuccessText('delete', list.item),
  );
}
