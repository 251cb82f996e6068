import type { FieldErrors, FieldValues } from 'react-hook-form';
import type { ApiErrorBody } from '../../api/client';
import type { SummaryError } from './error-summary';

/**
 * A 400's `{field: [messages]}` flattened to dotted paths: nested objects and arrays of the
 * server's shape (`{addresses: [{postcode: ['Required']}]}`) become `addresses.0.postcode`.
 * A string value counts as one message; other values are dropped.
 */
export function flattenServerErrors(body: ApiErrorBody): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  const walk = (value: unknown, path: string) => {
    if (typeof value === 'string') {
      if (path) out[path] = [...(out[path] ?? []), value];
      return;
    }
    if (Array.isArray(value)) {
      if (value.every((v) => typeof v === 'string')) {
        if (path && value.length > 0) out[path] = [...(out[path] ?? []), ...value];
        return;
      }
      value.forEach((v, i) => {
        walk(v, path ? `${path}.${i}` : String(i));
      });
      return;
    }
    if (typeof value === 'object' && value !== null) {
      for (const [key, v] of Object.entries(value)) walk(v, path ? `${path}.${key}` : key);
    }
  };
  walk(body, '');
  return out;
}

/**
 * A react-hook-form error tree as summary lines, in the tree's order (the schema's): the field
 * is the dotted path (the kit's fields use it as their id); `labels` names the fields.
 */
export function summaryOfErrors(
  errors: FieldErrors<FieldValues>,
  labels: Readonly<Record<string, string>> = {},
): SummaryError[] {
  const out: SummaryError[] = [];
  const walk = (node: unknown, path: string) => {
    if (typeof node !== 'object' || node === null) return;
    const message = 'message' in node ? node.message : undefined;
    if (path && typeof message === 'string' && message) {
      const label = labels[path];
      out.push(label ? { field: path, message, label } : { field: path, message });
      return;
    }
    for (const [key, child] of Object.entries(node)) {
      if (key === 'ref' || key === 'type' || key === 'types' || key === 'root') continue;
      walk(child, path ? `${path}.${key}` : key);
    }
  };
  walk(errors, '');
  return out;
}

/** Field errors from a Zod result's issues: the first message per dotted path. */
export function issuesByField(
  issues: readonly { path: readonly PropertyKey[]; message: string }[],
): Record<string, string> {
  const out: Record<string, string> = {};
  for (const i of issues) {
    const key = i.path.map(String).join('.');
    if (key && !(key in out)) out[key] = i.message;
  }
  return out;
}
