import { generatePath } from 'react-router';
import { buildQuery, type QueryParams } from '../api/query-string';
import { routeByName } from './route-table';

export type RouteParams = Record<string, string | number>;

/**
 * The URL of a named route: `href('case-detail', {id: 4})`, `href('login', {}, {next: '/cases'})`.
 * Every link in the app goes through here so a renamed path changes in one place.
 */
export function href(name: string, params: RouteParams = {}, query?: QueryParams): string {
  const route = routeByName(name);
  if (!route) throw new Error(`Unknown route ${name}`);
  const stringParams = Object.fromEntries(Object.entries(params).map(([k, v]) => [k, String(v)]));
  return `${generatePath(route.path, stringParams)}${buildQuery(query)}`;
}

/** A `next` value is only followed when it stays on this site. */
export function safeNext(next: string | null | undefined, fallback = '/'): string {
  if (!next?.startsWith('/') || next.startsWith('//') || next.startsWith('/\\')) {
    return fallback;
  }
  return next;
}
