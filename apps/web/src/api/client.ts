import { buildQuery, type QueryParams } from './query-string';

/** The error body shapes of the API contract: `{detail}` or `{field: [messages]}`. */
export type ApiErrorBody = Readonly<Record<string, unknown>> & { detail?: string };

export type ApiResult<T> =
  | { ok: true; status: number; data: T }
  | { ok: false; status: number; data: ApiErrorBody; retryAfter?: number };

export interface Page<T> {
  count: number;
  /** The server counted up to `count` (10,000) and there are more (issue 28). */
  count_capped?: true;
  next: string | null;
  previous: string | null;
  results: T[];
}

export type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/** The success status each generic action checks (spec point 8). */
export const SUCCESS_STATUS = {
  list: 200,
  retrieve: 200,
  update: 200,
  partialUpdate: 200,
  create: 201,
  delete: 204,
} as const;

export interface RequestOptions {
  params?: QueryParams;
  body?: unknown;
  signal?: AbortSignal;
  /** Status that counts as success; any 2xx when absent. */
  expect?: number;
}

type ResponseListener = (status: number, body: ApiErrorBody, path: string) => void;

let csrfToken = '';
const listeners = new Set<ResponseListener>();

/** The CSRF token from the latest check-session or login answer; sent on every call. */
export function setCsrfToken(token: string): void {
  csrfToken = token;
}

export function getCsrfToken(): string {
  return csrfToken;
}

/** Observes every failed response (the session layer watches 503 for maintenance). */
export function onFailedResponse(listener: ResponseListener): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

async function readBody(response: Response): Promise<unknown> {
  if (response.status === 204) return null;
  const text = await response.text();
  if (!text) return null;
  try {
    return JSON.parse(text);
  } catch {
    return { detail: text };
  }
}

function asErrorBody(value: unknown): ApiErrorBody {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
    ? (value as ApiErrorBody)
    : {};
}

/**
 * One call to the API. Never throws: a failed call (HTTP error or network failure, status 0)
 * resolves to `{ok: false, status, data: errorBody}`.
 */
export async function request<T>(
  method: Method,
  path: string,
  { params, body, signal, expect }: RequestOptions = {},
): Promise<ApiResult<T>> {
  const headers: Record<string, string> = { Accept: 'application/json', 'X-CSRFToken': csrfToken };
  if (body !== undefined) headers['Content-Type'] = 'application/json';
  let response: Response;
  try {
    response = await fetch(`${path}${buildQuery(params)}`, {
      method,
      headers,
      credentials: 'same-origin',
      body: body === undefined ? undefined : JSON.stringify(body),
      signal,
    });
  } catch {
    const data: ApiErrorBody = {};
    for (const listener of listeners) listener(0, data, path);
    return { ok: false, status: 0, data };
  }
  const data = await readBody(response).catch(() => null);
  const ok = expect === undefined ? response.ok : response.status === expect;
  if (ok) return { ok: true, status: response.status, data: data as T };
  const errorBody = asErrorBody(data);
  for (const listener of listeners) listener(response.status, errorBody, path);
  // A throttled answer (429) says in Retry-After how many seconds to wait.
  const retryAfter = Number.parseInt(response.headers.get('retry-after') ?? '', 10);
  return {
    ok: false,
    status: response.status,
    data: errorBody,
    ...(Number.isFinite(retryAfter) ? { retryAfter } : {}),
  };
}

/**
 * A page as the list queries hold it: `failed` marks the empty page a failed call resolved to,
 * so a screen can say the load failed (and offer to retry) rather than 'nothing here'.
 */
export type ListPage<T> = Page<T> & { failed?: true };

/** A fresh empty page (the value a failed list resolves to). */
export function emptyPage<T>(): Page<T> {
  return { count: 0, next: null, previous: null, results: [] };
}

export type ListResult<T> = { ok: boolean; status: number; data: Page<T>; error?: ApiErrorBody };

const base = (resource: string) => (resource.endsWith('/') ? resource : `${resource}/`);
const itemPath = (resource: string, id: number | string) => `${base(resource)}${id}/`;

/** GET a list; a failed list gives `{count: 0, results: []}` plus the error. */
export async function list<T>(
  resource: string,
  params?: QueryParams,
  signal?: AbortSignal,
): Promise<ListResult<T>> {
  const result = await request<Page<T>>('GET', base(resource), {
    params,
    signal,
    expect: SUCCESS_STATUS.list,
  });
  if (result.ok) return result;
  return { ok: false, status: result.status, data: emptyPage<T>(), error: result.data };
}

export const retrieve = <T>(resource: string, id: number | string, params?: QueryParams) =>
  request<T>('GET', itemPath(resource, id), { params, expect: SUCCESS_STATUS.retrieve });

export const create = <T>(resource: string, body: unknown) =>
  request<T>('POST', base(resource), { body, expect: SUCCESS_STATUS.create });

export const update = <T>(resource: string, id: number | string, body: unknown) =>
  request<T>('PUT', itemPath(resource, id), { body, expect: SUCCESS_STATUS.update });

export const partialUpdate = <T>(resource: string, id: number | string, body: unknown) =>
  request<T>('PATCH', itemPath(resource, id), { body, expect: SUCCESS_STATUS.partialUpdate });

export const remove = (resource: string, id: number | string) =>
  request<null>('DELETE', itemPath(resource, id), { expect: SUCCESS_STATUS.delete });

/** GET every page of a list (page_size 100) until `count` is reached. */
export async function listAll<T>(resource: string, params?: QueryParams): Promise<ApiResult<T[]>> {
  const results: T[] = [];
  for (let page = 1; ; page++) {
    const r = await request<Page<T>>('GET', base(resource), {
      params: { ...params, page, page_size: 100 },
      expect: SUCCESS_STATUS.list,
    });
    if (!r.ok) return r;
    results.push(...r.data.results);
    if (results.length >= r.data.count || r.data.results.length === 0) {
      return { ok: true, status: r.status, data: results };
    }
  }
}
