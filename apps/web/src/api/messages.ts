import {
  actionErrorText,
  actionSuccessText,
  ERROR_TEXTS,
  fieldErrorLines,
  MAINTENANCE_TEXT,
} from '@kestrel/domain';
import type { ApiErrorBody } from './client';

/**
 * The message catalogue of spec point 8 as the web app uses it. The literal texts live in
 * `@kestrel/domain` (shared with the server); this module adds the rules for choosing one.
 */
export const MESSAGES_UI = {
  defaultError: ERROR_TEXTS.defaultError,
  defaultSuccess: ERROR_TEXTS.defaultSuccess,
  invalidLogin: ERROR_TEXTS.invalidLogin,
  mfaRequired: ERROR_TEXTS.mfaRequired,
  permissionDenied: ERROR_TEXTS.permissionDenied,
  bootstrapError: ERROR_TEXTS.bootstrapFailed,
  copied: ERROR_TEXTS.copied,
  copyError: ERROR_TEXTS.copyFailed,
  portalRetrieveError: ERROR_TEXTS.portalRetrieval,
  addressLookupError: ERROR_TEXTS.defaultError,
  maintenance: MAINTENANCE_TEXT,
  chunkLoadError: 'A part of the application could not be loaded.',
} as const;

/** The generic resource actions of spec point 7. */
export type ResourceAction = 'list' | 'retrieve' | 'create' | 'update' | 'partialUpdate' | 'delete';

const domainAction = (action: ResourceAction) =>
  action === 'create' ? 'add' : action === 'partialUpdate' ? 'update' : action;

/** 'Error getting list of {resource}', 'Error retrieving {item}', 'Error adding {item}', ... */
export function actionErrorMessage(action: ResourceAction, name: string): string {
  return actionErrorText(domainAction(action), name);
}

/** 'Successfully added/updated/deleted {item}'; otherwise 'Action performed successfully'. */
export function actionSuccessMessage(action: ResourceAction, name?: string): string {
  const a = domainAction(action);
  if (!name || a === 'list' || a === 'retrieve') return MESSAGES_UI.defaultSuccess;
  return actionSuccessText(a, name);
}

/** Back-end errors as 'field: messages' lines; `detail` and `non_field_errors` stay bare. */
export function backendErrorLines(body: ApiErrorBody): string[] {
  const bare: string[] = [];
  const fields: Record<string, string[]> = {};
  for (const [field, value] of Object.entries(body)) {
    if (field === 'maintenance_window') continue;
    const messages = Array.isArray(value)
      ? value.filter((m): m is string => typeof m === 'string')
      : typeof value === 'string'
        ? [value]
        : [];
    if (messages.length === 0) continue;
    if (field === 'detail' || field === 'non_field_errors') bare.push(messages.join(' '));
    else fields[field] = messages;
  }
  return [...bare, ...fieldErrorLines(fields)];
}

export interface FailureOptions {
  action?: ResourceAction;
  /** The resource (for lists) or item name used in the per-action message. */
  name?: string;
  /** Per-status overrides, e.g. `{409: 'Already archived'}`. */
  statusMessages?: Readonly<Record<number, string>>;
  /** Append the back-end's 'field: messages' lines. */
  showBackendErrors?: boolean;
}

/**
 * The text to show for a failed call, or null when nothing is shown (not-found is silent).
 * Order: per-status override, then the per-action message, then the default text.
 */
export function failureMessage(
  failure: { status: number; data: ApiErrorBody },
  { action, name, statusMessages, showBackendErrors }: FailureOptions = {},
): string | null {
  if (failure.status === 404) return null;
  const head =
    statusMessages?.[failure.status] ??
    (action && name ? actionErrorMessage(action, name) : MESSAGES_UI.defaultError);
  if (!showBackendErrors) return head;
  const lines = backendErrorLines(failure.data);
  return lines.length ? [head, ...lines].join('\n') : head;
}
