import type { FastifyRequest } from 'fastify';
import { z } from 'zod';

export const DEFAULT_PAGE_SIZE = 25;
export const MAX_PAGE_SIZE = 100;

/** `{count, next, previous, results}` */
export interface Page<R> {
  count: number;
  /** The total was counted up to COUNT_CAP (list-builder.ts) and there are more. */
  count_capped?: true;
  next: string | null;
  previous: string | null;
  results: R[];
}

/** The response schema of a page of `item`s. */
export function pageSchema<T extends z.ZodType>(item: T) {
  return z.object({
    count: z.number(),
    count_capped: z.literal(true).optional(),
    next: z.string().nullable(),
    previous: z.string().nullable(),
    results: z.array(item),
  });
}

/** page, page_size (≤100), search, ordering; other keys (filters) pass through. */
export const listQuerySchema = z.looseObject({
  page: z.coerce.number().int().min(1).optional(),
  page_size: z.coerce.number().int().min(1).optional(),
  search: z.string().max(200).optional(),
  ordering: z.string().max(200).optional(),
});

export function pageOf(query: { page?: number | undefined; page_size?: number | undefined }): {
  page: number;
  pageSize: number;
} {
  return {
    page: query.page ?? 1,
    pageSize: Math.min(query.page_size ?? DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE),
  };
}

/**
 * The absolute URL of another page of the current list, keeping the other query keys. Built on
 * PUBLIC_URL, never on the request's Host header (which the client chooses).
 */
export function pageUrl(request: FastifyRequest, path: string, page: number): string {
  const qs = request.url.includes('?') ? request.url.slice(request.url.indexOf('?') + 1) : '';
  const params = new URLSearchParams(qs);
  params.set('page', String(page));
  return `${request.server.deps.config.publicUrl}${path}?${params.toString()}`;
}
