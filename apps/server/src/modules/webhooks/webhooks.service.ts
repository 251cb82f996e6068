import { randomBytes } from 'node:crypto';
import type {
  WebhookDeliveryOut,
  WebhookDeliveryStatus,
  WebhookEndpointCreate,
  WebhookEndpointOut,
  WebhookEndpointUpdate,
} from '@kestrel/domain';
import { and, desc, eq } from 'drizzle-orm';
import type { Tx } from '../../db/connection.js';
import { recordAudit } from '../../platform/audit.js';
import type { Actor } from '../../platform/context.js';
import { NotFoundError, PermissionDeniedError, ValidationError } from '../../platform/errors.js';
import { seal } from '../../platform/sealed-secrets.js';
import type { SecretSource } from '../../platform/server-secrets.js';
import { isPrivateAddress, literalHost, PRIVATE_ADDRESS } from './webhook-send.js';
import { webhookDeliveries, webhookEndpoints } from './webhooks.table.js';

export const WEBHOOK_ENDPOINT_CT = 'webhooks.webhookendpoint';
export const WEBHOOK_SECRET_PURPOSE = 'webhook_secret';

export type EndpointRow = typeof webhookEndpoints.$inferSelect;
export type DeliveryRow = typeof webhookDeliveries.$inferSelect;

const iso = (d: Date | null) => d?.toISOString() ?? null;

export function presentEndpoint(e: EndpointRow): WebhookEndpointOut {
  return {
    id: e.id,
    url: e.url,
    description: e.description,
    events: e.events,
    is_enabled: e.isEnabled,
    disabled_reason: e.disabledReason,
    created_at: e.createdAt.toISOString(),
    updated_at: e.updatedAt.toISOString(),
  };
}

const STATUSES: readonly string[] = ['pending', 'delivered', 'failed'];

export function presentDelivery(d: DeliveryRow): WebhookDeliveryOut {
  return {
    id: d.id,
    endpoint: d.endpointId,
    event: d.event,
    event_id: d.eventId,
    status: (STATUSES.includes(d.status) ? d.status : 'pending') as WebhookDeliveryStatus,
    attempts: d.attempts,
    response_status: d.responseStatus,
    response_excerpt: d.responseExcerpt,
    latency_ms: d.latencyMs,
    error: d.error,
    created_at: d.createdAt.toISOString(),
    last_attempt_at: iso(d.lastAttemptAt),
    next_attempt_at: iso(d.nextAttemptAt),
    delivered_at: iso(d.deliveredAt),
  };
}

/** A new signing secret (`whsec_` and 256 random bits), shown once. */
export function newWebhookSecret(): string {
  return `whsec_${randomBytes(32).toString('base64url')}`;
}

/** 400 on `url` for a private, loopback or link-local address unless the installation allows. */
export function checkWebhookUrl(url: string, allowPrivate: boolean): void {
  if (allowPrivate) return;
  // a fully qualified name's trailing dot ('localhost.') names the same host
  const host = new URL(url).hostname.toLowerCase().replace(/\.$/, '');
  const literal = literalHost(url);
  if (
    host === 'localhost' ||
    host.endsWith('.localhost') ||
    (literal !== null && isPrivateAddress(literal))
  ) {
    throw ValidationError.of('url', PRIVATE_ADDRESS);
  }
}

export async function listEndpoints(tx: Tx): Promise<WebhookEndpointOut[]> {
  const rows = await tx
    .select()
    .from(webhookEndpoints)
    .orderBy(desc(webhookEndpoints.createdAt), desc(webhookEndpoints.id))
    .limit(200);
  return rows.map(presentEndpoint);
}

/** The endpoint `id` of the actor's customer (RLS), or 404. */
export async function findEndpoint(tx: Tx, id: number): Promise<EndpointRow> {
  const [row] = await tx.select().from(webhookEndpoints).where(eq(webhookEndpoints.id, id));
  if (!row) throw new NotFoundError();
  return row;
}

const audit = (
  tx: Tx,
  actor: Actor,
  e: EndpointRow,
  verb: 'created' | 'updated' | 'deleted',
  changes: Record<string, unknown>,
) =>
  recordAudit(tx, actor, {
    verb,
    contentType: WEBHOOK_ENDPOINT_CT,
    objectId: e.id,
    objectRepr: e.url.slice(0, 200),
    changes,
  });

/** Adds an endpoint with a new secret (sealed; returned this once); audited. */
export async function createEndpoint(
  tx: Tx,
  actor: Actor,
  secrets: SecretSource,
  data: WebhookEndpointCreate,
  opts: { allowPrivate: boolean; now: Date },
): Promise<WebhookEndpointOut & { secret: string }> {
  if (actor.customerId === null) throw new PermissionDeniedError();
  checkWebhookUrl(data.url, opts.allowPrivate);
  const secret = newWebhookSecret();
  const [row] = await tx
    .insert(webhookEndpoints)
    .values({
      customerId: actor.customerId,
      url: data.url,
      description: data.description,
      events: [...new Set(data.events)],
      secret: seal(secrets, WEBHOOK_SECRET_PURPOSE, secret),
      isEnabled: data.is_enabled,
      createdAt: opts.now,
      updatedAt: opts.now,
    })
    .returning();
  if (!row) throw new NotFoundError();
  await audit(tx, actor, row, 'created', { url: row.url, events: row.events });
  return { ...presentEndpoint(row), secret };
}

/** Changes an endpoint (enabling it again clears why it was disabled); audited. */
export async function updateEndpoint(
  tx: Tx,
  actor: Actor,
  id: number,
  data: WebhookEndpointUpdate,
  opts: { allowPrivate: boolean; now: Date },
): Promise<WebhookEndpointOut> {
  const before = await findEndpoint(tx, id);
  if (data.url !== undefined) checkWebhookUrl(data.url, opts.allowPrivate);
  const [row] = await tx
    .update(webhookEndpoints)
    .set({
      ...(data.url !== undefined ? { url: data.url } : {}),
      ...(data.description !== undefined ? { description: data.description } : {}),
      ...(data.events !== undefined ? { events: [...new Set(data.events)] } : {}),
      ...(data.is_enabled !== undefined
        ? { isEnabled: data.is_enabled, ...(data.is_enabled ? { disabledReason: '' } : {}) }
        : {}),
      updatedAt: opts.now,
    })
    .where(and(eq(webhookEndpoints.customerId, before.customerId), eq(webhookEndpoints.id, id)))
    .returning();
  if (!row) throw new NotFoundError();
  const changes: Record<string, unknown> = {};
  const a = presentEndpoint(before);
  const b = presentEndpoint(row);
  for (const k of ['url', 'description', 'events', 'is_enabled'] as const) {
    if (JSON.stringify(a[k]) !== JSON.stringify(b[k])) changes[k] = [a[k], b[k]];
  }
  await audit(tx, actor, row, 'updated', changes);
  return b;
}

/** Deletes an endpoint and its log; audited. */
export async function deleteEndpoint(tx: Tx, actor: Actor, id: number): Promise<void> {
  const row = await findEndpoint(tx, id);
  await tx
    .delete(webhookEndpoints)
    .where(and(eq(webhookEndpoints.customerId, row.customerId), eq(webhookEndpoints.id, id)));
  await audit(tx, actor, row, 'deleted', { url: row.url });
}

/** The endpoint's deliveries, newest first (the last 100). */
export async function endpointDeliveries(tx: Tx, id: number): Promise<WebhookDeliveryOut[]> {
  const e = await findEndpoint(tx, id);
  const rows = await tx
    .select()
    .from(webhookDeliveries)
    .where(
      and(eq(webhookDeliveries.customerId, e.customerId), eq(webhookDeliveries.endpointId, id)),
    )
    .orderBy(desc(webhookDeliveries.createdAt), desc(webhookDeliveries.id))
    .limit(100);
  return rows.map(presentDelivery);
}

/** The delivery `id` of the actor's customer (RLS), or 404. */
export async function findDelivery(tx: Tx, id: number): Promise<DeliveryRow> {
  const [row] = await tx.select().from(webhookDeliveries).where(eq(webhookDeliveries.id, id));
  if (!row) throw new NotFoundError();
  return row;
}

/** Records a new delivery of `event` to endpoint `e` (pending, no attempt yet). */
export async function addDelivery(
  tx: Tx,
  e: Pick<EndpointRow, 'customerId' | 'id'>,
  event: { event: string; eventId: string; payload: Record<string, unknown> },
  now: Date,
): Promise<DeliveryRow> {
  const [row] = await tx
    .insert(webhookDeliveries)
    .values({
      customerId: e.customerId,
      endpointId: e.id,
      event: event.event,
      eventId: event.eventId,
      payload: event.payload,
      createdAt: now,
      nextAttemptAt: now,
    })
    .returning();
  if (!row) throw new NotFoundError();
  return row;
}
