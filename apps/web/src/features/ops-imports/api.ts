import type { ImportOut, ImportPreviewOut, ImportRowOut, ImportSettings } from '@kestrel/domain';
import { queryOptions } from '@tanstack/react-query';
import { type ApiResult, getCsrfToken, type Page, request } from '../../api/client';

/** GET /api/ops/imports/ (contract: pageOut(importOut)). */
export const importsOptions = (page: number) =>
  queryOptions({
    queryKey: ['/api/ops/imports/', page],
    queryFn: async () => {
      const r = await request<Page<ImportOut>>('GET', '/api/ops/imports/', {
        params: { page },
        expect: 200,
      });
      return r.ok ? r.data : null;
    },
  });

/** GET /api/ops/imports/{id}/: polled while the import runs (its progress). */
export const importOptions = (id: number) =>
  queryOptions({
    queryKey: ['/api/ops/imports/', id],
    queryFn: async () => {
      const r = await request<ImportOut>('GET', `/api/ops/imports/${id}/`, { expect: 200 });
      return r.ok ? r.data : null;
    },
    refetchInterval: (q) => (q.state.data?.state === 'running' ? 1000 : false),
  });

export const previewOptions = (id: number) =>
  queryOptions({
    queryKey: ['/api/ops/imports/', id, 'preview'],
    queryFn: async () => {
      const r = await request<ImportPreviewOut>('GET', `/api/ops/imports/${id}/preview/`, {
        expect: 200,
      });
      return r.ok ? r.data : null;
    },
  });

export const invalidRowsOptions = (id: number, page: number) =>
  queryOptions({
    queryKey: ['/api/ops/imports/', id, 'rows', page],
    queryFn: async () => {
      const r = await request<Page<ImportRowOut>>('GET', `/api/ops/imports/${id}/rows/`, {
        params: { invalid: 'true', page },
        expect: 200,
      });
      return r.ok ? r.data : null;
    },
  });

export interface CustomerChoice {
  id: number;
  name: string;
}

export const customerChoicesOptions = () =>
  queryOptions({
    queryKey: ['/api/ops/customers/', 'choices'],
    queryFn: async () => {
      const r = await request<Page<CustomerChoice>>('GET', '/api/ops/customers/', {
        params: { page_size: 100 },
        expect: 200,
      });
      return r.ok ? r.data.results : [];
    },
  });

/** POST /api/ops/imports/ (multipart: file, customer, process, mode). */
export async function uploadImport(form: FormData): Promise<ApiResult<ImportOut>> {
  const res = await fetch('/api/ops/imports/', {
    method: 'POST',
    headers: { Accept: 'application/json', 'X-CSRFToken': getCsrfToken() },
    credentials: 'same-origin',
    body: form,
  }).catch(() => null);
  if (!res) return { ok: false, status: 0, data: {} };
  const data: unknown = await res.json().catch(() => ({}));
  if (res.status === 201) return { ok: true, status: 201, data: data as ImportOut };
  return { ok: false, status: res.status, data: (data ?? {}) as Record<string, unknown> };
}

export const saveMapping = (id: number, body: ImportSettings) =>
  request<ImportOut>('PUT', `/api/ops/imports/${id}/mapping/`, { body, expect: 200 });
export const validateImport = (id: number) =>
  request<ImportOut>('POST', `/api/ops/imports/${id}/validate/`, { expect: 200 });
export const runImport = (id: number) =>
  request<ImportOut>('POST', `/api/ops/imports/${id}/run/`, { expect: 202 });
export const reportHref = (id: number) => `/api/ops/imports/${id}/report/`;

/** An API error body's messages, one line each (`field: message`). */
export function errorLines(data: Readonly<Record<string, unknown>>): string[] {
  return Object.entries(data).flatMap(([k, v]) =>
    Array.isArray(v)
      ? v.map((m) => `${k === 'non_field_errors' || k === 'detail' ? '' : `${k}: `}${String(m)}`)
      : typeof v === 'string'
        ? [v]
        : [],
  );
}
