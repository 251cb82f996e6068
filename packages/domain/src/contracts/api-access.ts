import { z } from 'zod';
import { MESSAGES, maxCharacters } from '../messages.js';
import { CUSTOMER_PERMISSIONS } from '../permission-words.js';
import { isPermission, type Permission } from '../permissions.js';
import { nullableTimestampOut, timestampOut } from './common.js';
import { CONSENT_KINDS } from './portal.js';

/*
 * An API for customers' own systems (issue 33): API keys (a bearer token with scopes) and
 * webhook endpoints with their deliveries' log.
 */

export const API_KEY_NAME_MAX = 100;
export const WEBHOOK_URL_MAX = 500;
export const WEBHOOK_DESCRIPTION_MAX = 200;

/** The events a webhook endpoint may subscribe to. */
export const WEBHOOK_EVENTS = [
  'case.created',
  'activity.state_changed',
  'case.completed',
  'flag.raised',
  'consent.withdrawn',
  'consent.renewed',
] as const;
export type WebhookEvent = (typeof WEBHOOK_EVENTS)[number];

export const WEBHOOK_EVENT_LABELS: Record<WebhookEvent, string> = {
  'case.created': 'Case created',
  'activity.state_changed': 'Activity state changed',
  'case.completed': 'Case completed',
  'flag.raised': 'Flag raised',
  'consent.withdrawn': 'Consent withdrawn',
  'consent.renewed': 'Consent renewed',
};

/**
 * The `data` of a `consent.renewed` delivery: a subject renewed a consent (the DVLA mandate's
 * re-consent, /s/dvla-reconsent), so a new consent (`id`) replaces the one that was due
 * (`replaces`). Ids and dates only, as every event's data.
 */
export const consentRenewedEventData = z.strictObject({
  consent: z.strictObject({
    id: z.number().int(),
    replaces: z.number().int(),
    kind: z.enum(CONSENT_KINDS),
    case: z.number().int(),
    case_activity: z.number().int(),
    renewed_at: timestampOut,
    /** When the new consent ends (a DVLA mandate: 3 years after `renewed_at`). */
    expires_at: nullableTimestampOut,
    /** When the consent it replaces ended or would have ended. */
    replaced_expires_at: nullableTimestampOut,
  }),
});
export type ConsentRenewedEventData = z.infer<typeof consentRenewedEventData>;

/** A delivery's states: waiting to be (re)tried, answered 2xx, or given up after 24 hours. */
export const WEBHOOK_DELIVERY_STATUSES = ['pending', 'delivered', 'failed'] as const;
export type WebhookDeliveryStatus = (typeof WEBHOOK_DELIVERY_STATUSES)[number];

/** The header that carries a delivery's signature: `t=<unix>,v1=<hex HMAC-SHA256>`. */
export const WEBHOOK_SIGNATURE_HEADER = 'Kestrel-Signature';

const required = (max: number) =>
  z
    .string({ error: MESSAGES.required })
    .trim()
    .min(1, MESSAGES.required)
    .max(max, maxCharacters(max));

/** A permission a key may hold: a customer's (spec point 6's strings, never ops-only ones). */
const scope = z
  .string()
  .refine((p): p is Permission => isPermission(p) && CUSTOMER_PERMISSIONS.includes(p), {
    error: (issue) => `"${String(issue.input)}" is not a valid permission.`,
  });

/** POST /api/api-keys/. */
export const apiKeyCreate = z.strictObject({
  name: required(API_KEY_NAME_MAX),
  scopes: z.array(scope).min(1, 'Choose at least one permission.').max(200),
});
export type ApiKeyCreate = z.output<typeof apiKeyCreate>;

/** An API key in lists (never its secret). */
export const apiKeyOut = z.strictObject({
  id: z.number().int(),
  name: z.string(),
  prefix: z.string(),
  scopes: z.array(z.string()),
  created_by: z.string(),
  created_at: timestampOut,
  last_used_at: nullableTimestampOut,
  revoked_at: nullableTimestampOut,
});
export type ApiKeyOut = z.infer<typeof apiKeyOut>;

/** The answer to POST /api/api-keys/: the key with its secret, the only time it is shown. */
export const apiKeyCreatedOut = apiKeyOut.extend({ secret: z.string() });
export type ApiKeyCreatedOut = z.infer<typeof apiKeyCreatedOut>;

const webhookUrl = z
  .string({ error: MESSAGES.required })
  .trim()
  .min(1, MESSAGES.required)
  .max(WEBHOOK_URL_MAX, maxCharacters(WEBHOOK_URL_MAX))
  .refine((v) => /^https?:\/\/[^\s/]+/i.test(v) && URL.canParse(v), 'Enter a valid URL.');

const events = z.array(z.enum(WEBHOOK_EVENTS)).min(1, 'Choose at least one event.').max(20);

/** POST /api/webhook-endpoints/. */
export const webhookEndpointCreate = z.strictObject({
  url: webhookUrl,
  description: z
    .string()
    .trim()
    .max(WEBHOOK_DESCRIPTION_MAX, maxCharacters(WEBHOOK_DESCRIPTION_MAX))
    .default(''),
  events,
  is_enabled: z.boolean().default(true),
});
export type WebhookEndpointCreate = z.output<typeof webhookEndpointCreate>;

/** PATCH /api/webhook-endpoints/{id}/. */
export const webhookEndpointUpdate = z.strictObject({
  url: webhookUrl.optional(),
  description: z
    .string()
    .trim()
    .max(WEBHOOK_DESCRIPTION_MAX, maxCharacters(WEBHOOK_DESCRIPTION_MAX))
    .optional(),
  events: events.optional(),
  is_enabled: z.boolean().optional(),
});
export type WebhookEndpointUpdate = z.output<typeof webhookEndpointUpdate>;

export const webhookEndpointOut = z.strictObject({
  id: z.number().int(),
  url: z.string(),
  description: z.string(),
  events: z.array(z.string()),
  is_enabled: z.boolean(),
  disabled_reason: z.string(),
  created_at: timestampOut,
  updated_at: timestampOut,
});
export type WebhookEndpointOut = z.infer<typeof webhookEndpointOut>;

/** The answer to POST /api/webhook-endpoints/: with its signing secret, shown this once. */
export const webhookEndpointCreatedOut = webhookEndpointOut.extend({ secret: z.string() });
export type WebhookEndpointCreatedOut = z.infer<typeof webhookEndpointCreatedOut>;

export const webhookDeliveryOut = z.strictObject({
  id: z.number().int(),
  endpoint: z.number().int(),
  event: z.string(),
  event_id: z.string(),
  status: z.enum(WEBHOOK_DELIVERY_STATUSES),
  attempts: z.number().int(),
  response_status: z.number().int().nullable(),
  response_excerpt: z.string(),
  latency_ms: z.number().int().nullable(),
  error: z.string(),
  created_at: timestampOut,
  last_attempt_at: nullableTimestampOut,
  next_attempt_at: nullableTimestampOut,
  delivered_at: nullableTimestampOut,
});
export type WebhookDeliveryOut = z.infer<typeof webhookDeliveryOut>;
