import type { JobOut } from '@kestrel/domain';
import { queryOptions } from '@tanstack/react-query';
import { type Page, request } from '../../api/client';
import { failureMessage } from '../../api/messages';

/** One job of GET /api/ops/jobs/ (contract: jobOut). */
export type Job = JobOut;

export const JOBS_PATH = '/api/ops/jobs/';
export const JOBS_PAGE_SIZE = 25;

/** The jobs in `state` ('' for every state), newest first; null when the list failed. */
export const jobsOptions = (state: string, page: number) =>
  queryOptions({
    queryKey: [JOBS_PATH, state, page],
    queryFn: async () => {
      const r = await request<Page<Job>>('GET', JOBS_PATH, {
        params: { page, page_size: JOBS_PAGE_SIZE, ...(state ? { state } : {}) },
        expect: 200,
      });
      return r.ok ? r.data : null;
    },
  });

/** Retries or discards a dead job; the failure's message, or null on success. */
export async function actOnJob(id: string, action: 'retry' | 'discard'): Promise<string | null> {
  const r = await request<{ detail: string }>('POST', `${JOBS_PATH}${id}/${action}/`, {
    body: {},
    expect: 200,
  });
  if (r.ok) return null;
  return (
    failureMessage(r, { showBackendErrors: true }) ??
    'The job is no longer there. Refresh the list.'
  );
}
