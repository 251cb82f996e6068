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

/**
 * A throttled sign-in in plain words, with the wait from Retry-After:
 * 'Too many sign-in attempts. Try again in 4 minutes.'
 */
export function throttledText(retryAfterSeconds: number | null): string {
  const head = 'Too many sign-in attempts.';
  if (retryAfterSeconds === null || retryAfterSeconds <= 0) {
    return `${head} Try again in a few minutes.`;
  }
  if (retryAfterSeconds < 60) {
    const s = Math.ceil(retryAfterSeconds);
    return `${head} Try again in ${s} ${s === 1 ? 'second' : 'seconds'}.`;
  }
  const m = Math.ceil(retryAfterSeconds / 60);
  return `${head} Try again in ${m} ${m === 1 ? 'minute' : 'minutes'}.`;
}

/** Server texts that are not plain words, said as a person would (spec point 8). */
const PLAIN_TEXTS: Readonly<Record<string, string>> = {
  'Invalid or expired token': 'This link is not valid or has expired. Ask for a new one.',
};

/** Fields whose messages are about the link or the request, not a field the person filled in. */
const BARE_FIELDS = new Set(['detail', 'non_field_errors', 'token', 'uid']);

/** A field name in plain words: 'date_of_birth' → 'Date of birth', 'items.0.name' → 'Items 1 name'. */
export function fieldLabel(field: string): string {
  const words = field
    .split('.')
    .map((part) => (/^\d+$/.test(part) ? String(Number(part) + 1) : part.replace(/_/g, ' ')))
    .join(' ')
    .trim();
  return words.charAt(0).toUpperCase() + words.slice(1);
}

const plain = (message: string) => PLAIN_TEXTS[message] ?? message;
const sentence = (message: string) => (/[.!?]$/.test(message) ? message : `${message}.`);

/**
 * Back-end errors as 'Field: messages' lines in plain words; `detail`, `non_field_errors` and
 * link errors stay bare. Each message ends as a sentence, so two never run together.
 */
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
    const said = messages.map((m) => sentence(plain(m)));
    if (BARE_FIELDS.has(field)) bare.push(said.join(' '));
    else fields[fieldLabel(field)] = said;
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
