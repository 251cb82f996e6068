import {
  keepPreviousData,
  queryOptions,
  useMutation,
  useQuery,
  useQueryClient,
} from '@tanstack/react-query';
import { notify } from '../lib/notify';
import {
  type ApiErrorBody,
  type ApiResult,
  create,
  list,
  partialUpdate,
  remove,
  retrieve,
  update,
} from './client';
import { actionSuccessMessage, type FailureOptions, failureMessage } from './messages';
import type { QueryParams } from './query-string';

/**
 * Typed resource hooks on TanStack Query. A feature declares its resource once:
 *   const cases = defineResource<Case>('/api/cases/', { item: 'case', plural: 'cases' });
 * and uses `cases.useList(params)`, `cases.useItem(id)`, `cases.useSave()`, `cases.useDelete()`.
 */
export interface ResourceNames {
  /** Singular name in messages: 'Error retrieving case', 'Successfully added case'. */
  item: string;
  /** Plural name in messages: 'Error getting list of cases'. */
  plural: string;
}

export class ApiFailure extends Error {
  constructor(
    readonly status: number,
    readonly body: ApiErrorBody,
    message: string | null,
  ) {
    super(message ?? `HTTP ${status}`);
  }
}

export function defineResource<T extends { id: number | string }>(
  path: string,
  names: ResourceNames,
) {
  const key = [path] as const;
  const listOptions = (params: QueryParams = {}) =>
    queryOptions({
      queryKey: [...key, 'list', params],
      queryFn: async ({ signal }) => {
        const r = await list<T>(path, params, signal);
        if (!r.ok && r.error) {
          const message = failureMessage(
            { status: r.status, data: r.error },
            { action: 'list', name: names.plural },
          );
          if (message) notify.error(message);
        }
        return r.data;
      },
      placeholderData: keepPreviousData,
    });
  const itemOptions = (id: number | string) =>
    queryOptions({
      queryKey: [...key, 'item', String(id)],
      queryFn: async () => {
        const r = await retrieve<T>(path, id);
        if (r.ok) return r.data;
        const message = failureMessage(r, { action: 'retrieve', name: names.item });
        if (message) notify.error(message);
        throw new ApiFailure(r.status, r.data, message);
      },
    });

  return {
    path,
    names,
    key,
    listOptions,
    itemOptions,
    useList: (params?: QueryParams) => useQuery(listOptions(params)),
    useItem: (id: number | string) => useQuery(itemOptions(id)),
    /** Create (no id) or update (with id); toasts the catalogue's message either way. */
    useSave: (options: Omit<FailureOptions, 'action' | 'name'> & { partial?: boolean } = {}) => {
      const client = useQueryClient();
      return useMutation({
        mutationFn: async ({ id, values }: { id?: number | string; values: unknown }) => {
          const action = id === undefined ? 'create' : options.partial ? 'partialUpdate' : 'update';
          const r: ApiResult<T> =
            id === undefined
              ? await create<T>(path, values)
              : options.partial
                ? await partialUpdate<T>(path, id, values)
                : await update<T>(path, id, values);
          if (!r.ok) {
            const message = failureMessage(r, {
              ...options,
              action,
              name: names.item,
              showBackendErrors: options.showBackendErrors ?? true,
            });
            if (message) notify.error(message);
            throw new ApiFailure(r.status, r.data, message);
          }
          notify.success(actionSuccessMessage(action, names.item));
          return r.data;
        },
        onSuccess: () => client.invalidateQueries({ queryKey: key }),
      });
    },
    useDelete: () => {
      const client = useQueryClient();
      return useMutation({
        mutationFn: async (id: number | string) => {
          const r = await remove(path, id);
          if (!r.ok) {
            const message = failureMessage(r, { action: 'delete', name: names.item });
            if (message) notify.error(message);
            throw new ApiFailure(r.status, r.data, message);
          }
          notify.success(actionSuccessMessage('delete', names.item));
        },
        onSuccess: () => client.invalidateQueries({ queryKey: key }),
      });
    },
  };
}
