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
  type ListPage,
  list,
  partialUpdate,
  remove,
  retrieve,
  update,
} from './client';
import { actionSuccessMessage, type FailureOptions, failureMessage } from './messages';
import type { QueryParams } from './query-string';

/**
 * Typed resource hooks on TanStack Query. Each resource is declared once, in its own file of
 * this folder (`api/cases.ts`, ...), shared by every feature:
 *   const cases = defineResource<CaseListItem, CaseDetail>('/api/cases/', {item: 'case', plural: 'cases'});
 * and used as `cases.useList(params)`, `cases.useItem(id)`, `cases.useSave()`, `cases.useDelete()`,
 * or `useQuery({...cases.listOptions(params), select})`. Every query key of a resource comes from
 * its `keys` factory, so one key always holds one type of data.
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

/** The query keys of one resource: everything under `[path]`, so one invalidation refreshes it. */
export function resourceKeys(path: string) {
  const all = [path] as const;
  return {
    all,
    list: (params: QueryParams = {}) => [path, 'list', params] as const,
    item: (id: number | string) => [path, 'item', String(id)] as const,
    /** Any other read of the resource (an action's check, a sub-list): `[path, name, ...args]`. */
    other: (name: string, ...args: readonly unknown[]) => [path, name, ...args] as const,
  };
}

/**
 * `Row` is what the list answers, `Item` what retrieve, create and update answer (the detail
 * shape; the same as the row unless given).
 */
export function defineResource<
  Row extends { id: number | string },
  Item extends { id: number | string } = Row,
>(path: string, names: ResourceNames) {
  const keys = resourceKeys(path);
  const key = keys.all;
  const listOptions = (params: QueryParams = {}) =>
    queryOptions({
      queryKey: keys.list(params),
      queryFn: async ({ signal }) => {
        const r = await list<Row>(path, params, signal);
        if (!r.ok && r.error) {
          const message = failureMessage(
            { status: r.status, data: r.error },
            { action: 'list', name: names.plural },
          );
          if (message) notify.error(message);
        }
        const page: ListPage<Row> = r.ok ? r.data : { ...r.data, failed: true };
        return page;
      },
      placeholderData: keepPreviousData,
    });
  /** `quiet`: a failure is not toasted (a screen that copes without the item). */
  const itemOptions = (id: number | string, { quiet = false }: { quiet?: boolean } = {}) =>
    queryOptions({
      queryKey: keys.item(id),
      queryFn: async () => {
        const r = await retrieve<Item>(path, id);
        if (r.ok) return r.data;
        const message = quiet ? null : failureMessage(r, { action: 'retrieve', name: names.item });
        if (message) notify.error(message);
        throw new ApiFailure(r.status, r.data, message);
      },
    });

  return {
    path,
    names,
    key,
    keys,
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
          const r: ApiResult<Item> =
            id === undefined
              ? await create<Item>(path, values)
              : options.partial
                ? await partialUpdate<Item>(path, id, values)
                : await update<Item>(path, id, values);
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
