import { z } from 'zod';
import { dbsEnhancedProviderSchema } from '../ops-forms.js';
import { CHECK_PROVIDERS, type CheckProvider } from './kinds.js';
import { topUpSchema } from './top-up.js';

/*
 * The `processing_data` of an activity the check engine runs: which provider, its reference, the
 * idempotency key of the submission, attempts and the last error, and the log of every request,
 * answer and callback exchanged with the provider (secrets and images never stored).
 */

export const PROCESSING_EVENT_TYPES = [
  'request',
  'answer',
  'callback',
  'poll',
  'error',
  'retry',
  'top-up',
] as const;
export type ProcessingEventType = (typeof PROCESSING_EVENT_TYPES)[number];

export const processingEventSchema = z
  .object({
    at: z.string(),
    type: z.enum(PROCESSING_EVENT_TYPES),
    /** A callback's event id (a replay carries the same one and is ignored). */
    event_id: z.string().max(100).optional(),
    body: z.record(z.string(), z.unknown()),
    /**
     * The same event (type and body) seen this many times in a row, the last at `at`, the first
     * at `first_at` (a provider polled for weeks answering the same: one entry, not hundreds).
     */
    repeats: z.number().int().min(2).optional(),
    first_at: z.string().optional(),
  })
  .strict();
export type ProcessingEvent = z.infer<typeof processingEventSchema>;

/**
 * At most this many events are kept: past it, the first PROCESSING_LOG_HEAD (the submission and
 * the provider's first answers) and the latest; those between are dropped (event ids are kept
 * apart, so a replayed callback is still known).
 */
export const MAX_PROCESSING_EVENTS = 200;
export const PROCESSING_LOG_HEAD = 20;

export const processingDataSchema = z
  .object({
    provider: z.enum(CHECK_PROVIDERS),
    /** The provider's reference for the application (e-bulk e-reference, disclosure reference). */
    reference: z.string().max(100).nullable(),
    /** Sent with every submission of this activity: the provider creates one application. */
    idempotency_key: z.string().min(1).max(100),
    /** Failed attempts to start the check since it was last (re)started. */
    attempts: z.number().int().nonnegative(),
    last_error: z.string().max(500).nullable(),
    /** The stage the provider last reported (1-5), null before the first answer. */
    stage: z.number().int().min(0).max(9).nullable(),
    /** Callback event ids already applied (replays are ignored). */
    event_ids: z.array(z.string().max(100)),
    events: z.array(processingEventSchema).max(MAX_PROCESSING_EVENTS),
    top_up: topUpSchema.nullable(),
    /**
     * The registered body's contacts for an enhanced application (the ops provider configuration
     * form, point 5), sent with it; set by operations before or after the start.
     */
    provider_configuration: dbsEnhancedProviderSchema.strict().optional(),
  })
  .strict();
export type ProcessingData = z.infer<typeof processingDataSchema>;

/** The provider configuration operations saved on an activity, whatever else its data holds. */
export function providerConfigurationOf(data: unknown) {
  if (data === null || typeof data !== 'object') return undefined;
  const parsed = dbsEnhancedProviderSchema.safeParse(
    (data as { provider_configuration?: unknown }).provider_configuration,
  );
  return parsed.success ? parsed.data : undefined;
}

/** Our own wording: what a hand edit of an activity the check engine runs is refused with. */
export const ENGINE_ACTIVITY_MESSAGES = {
  state:
    'This check moves with its provider’s answers: it can only be cancelled, or decided once it waits for a decision.',
  processingData:
    'The provider log of a check cannot be edited by hand: its data must stay in the engine’s shape.',
  resultData: 'The result of a check comes from its provider (or from operations).',
  resultShape: 'This is not a result of this kind of check.',
} as const;

/**
 * Whether an activity the engine runs may be moved by hand from `from` to `to`: cancelled at any
 * time, and decided (completed or cancelled) once it waits for a decision.
 */
export function isHandMoveAllowed(from: string, to: string): boolean {
  return to === 'ca-cancelled' || from === 'ca-pending-activity-decision';
}

/**
 * Body keys never stored in processing_data (credentials, signatures, payment secrets, images),
 * matched whatever their case.
 */
export const REDACTED_KEYS = [
  'api_key',
  'apikey',
  'api-key',
  'x-api-key',
  'authorization',
  'client_secret',
  'password',
  'secret',
  'signature',
  'token',
  'image',
  'images',
  'photo',
  'document_image',
] as const;

/** `body` without its secrets and images, at any depth (they become '[redacted]'). */
export function redact(body: unknown): unknown {
  if (Array.isArray(body)) return body.map(redact);
  if (body !== null && typeof body === 'object') {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(body)) {
      out[k] = (REDACTED_KEYS as readonly string[]).includes(k.toLowerCase())
        ? '[redacted]'
        : redact(v);
    }
    return out;
  }
  return body;
}

/**
 * True when `a` and `b` are the same JSON value, whatever the order of their objects' keys (data
 * read back from jsonb has its keys in PostgreSQL's order, not the order they were written in).
 */
export function sameJson(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (Array.isArray(a) || Array.isArray(b)) {
    return (
      Array.isArray(a) &&
      Array.isArray(b) &&
      a.length === b.length &&
      a.every((v, i) => sameJson(v, b[i]))
    );
  }
  if (a === null || b === null || typeof a !== 'object' || typeof b !== 'object') return false;
  const ka = Object.keys(a).filter((k) => (a as Record<string, unknown>)[k] !== undefined);
  const kb = Object.keys(b).filter((k) => (b as Record<string, unknown>)[k] !== undefined);
  return (
    ka.length === kb.length &&
    ka.every((k) => sameJson((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k]))
  );
}

/**
 * `data` with `event` appended (redacted). An event repeating the last one (same type and body,
 * no callback event id) is folded into it: counted, with the time of the first and the last.
 * Past the limit, the events after the log's head are dropped oldest first.
 */
export function withEvent(data: ProcessingData, event: ProcessingEvent): ProcessingData {
  const redacted = redact(event.body);
  const body =
    redacted !== null && typeof redacted === 'object' && !Array.isArray(redacted)
      ? (redacted as Record<string, unknown>)
      : {};
  const last = data.events.at(-1);
  const repeat =
    last !== undefined &&
    event.event_id === undefined &&
    last.event_id === undefined &&
    last.type === event.type &&
    sameJson(last.body, body);
  const appended: ProcessingEvent[] = repeat
    ? [
        ...data.events.slice(0, -1),
        {
          ...last,
          at: event.at,
          repeats: (last.repeats ?? 1) + 1,
          first_at: last.first_at ?? last.at,
        },
      ]
    : [...data.events, { ...event, body }];
  const events =
    appended.length > MAX_PROCESSING_EVENTS
      ? [
          ...appended.slice(0, PROCESSING_LOG_HEAD),
          ...appended.slice(-(MAX_PROCESSING_EVENTS - PROCESSING_LOG_HEAD)),
        ]
      : appended;
  const event_ids =
    event.event_id !== undefined ? [...data.event_ids, event.event_id] : data.event_ids;
  return { ...data, events, event_ids };
}

/** The processing data of an activity the engine starts. */
export function initialProcessingData(
  provider: CheckProvider,
  idempotencyKey: string,
): ProcessingData {
  return {
    provider,
    reference: null,
    idempotency_key: idempotencyKey,
    attempts: 0,
    last_error: null,
    stage: null,
    event_ids: [],
    events: [],
    top_up: null,
  };
}

/** POST /api/ops/case-activities/{id}/retry/: an optional reason, kept in the activity's log. */
export const activityRetryIn = z
  .object({ reason: z.string().max(400).optional() })
  .strict()
  .nullish();

/** Its answer: the activity's new state and processing data. */
export const activityRetryOut = z
  .object({
    id: z.number().int(),
    state: z.string(),
    processing_data: processingDataSchema,
  })
  .strict();
export type ActivityRetryOut = z.infer<typeof activityRetryOut>;
