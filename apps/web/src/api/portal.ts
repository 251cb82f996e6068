import type { CasePortalOut, PortalSection } from '@kestrel/domain';
import { queryOptions, useQueryClient } from '@tanstack/react-query';
import { useCallback } from 'react';
import { type ApiErrorBody, request } from './client';

/**
 * The subject's case portal (spec points 2 to 4, contracts/portal.ts):
 *   GET   /api/s/case-portal/{case}/          the payload (point 3)
 *   PATCH /api/s/case-portal/{case}/          { portal_last_completed_section }
 *   POST  /api/s/case-portal/{case}/submit/   Review & Submit (read-only afterwards)
 * The sections' own data goes through the case data resources under /api/s/ (audience 'subject').
 */
export type CasePortal = CasePortalOut;

export const portalPath = (caseId: number | string) => `/api/s/case-portal/${caseId}/`;

/** A failed portal call: its status and error body. */
export class PortalFailure extends Error {
  constructor(
    readonly status: number,
    readonly body: ApiErrorBody,
  ) {
    super(`HTTP ${status}`);
  }
}

export const portalKey = (caseId: number | string) => ['case-portal', String(caseId)] as const;

export const casePortalOptions = (caseId: number | string) =>
  queryOptions({
    queryKey: portalKey(caseId),
    queryFn: async (): Promise<CasePortal> => {
      const r = await request<CasePortal>('GET', portalPath(caseId), { expect: 200 });
      if (!r.ok) throw new PortalFailure(r.status, r.data);
      return r.data;
    },
    retry: false,
    staleTime: 0,
  });

/** Records the progress (a section, or `section/step` while part done). */
export async function saveProgress(caseId: number | string, step: string): Promise<void> {
  const r = await request<unknown>('PATCH', portalPath(caseId), {
    body: { portal_last_completed_section: step },
    expect: 200,
  });
  if (!r.ok) throw new PortalFailure(r.status, r.data);
}

/** Review & Submit: the activities move on, and the portal becomes read-only. */
export async function submitPortal(caseId: number | string): Promise<void> {
  const r = await request<unknown>('POST', `${portalPath(caseId)}submit/`, { body: {} });
  if (!r.ok) throw new PortalFailure(r.status, r.data);
}

/** Reloads the portal payload (and waits for it). */
export function useRefreshPortal(caseId: number | string): () => Promise<void> {
  const client = useQueryClient();
  return useCallback(async () => {
    await client.refetchQueries({ queryKey: portalKey(caseId), exact: true });
  }, [client, caseId]);
}

/**
 * How far a progress value reaches in the case's sections: the number of sections done
 * (a value with a slash counts one step earlier, as the domain's `portalProgress`).
 */
export function completedCount(sections: readonly PortalSection[], step: string | null): number {
  if (!step) return 0;
  const [name = ''] = step.split('/');
  const index = sections.indexOf(name as PortalSection);
  if (index < 0) return 0;
  return index + (step.includes('/') ? 0 : 1);
}
