import { randomBytes } from 'node:crypto';
import { WEBHOOK_EVENTS, type WebhookEvent } from '@kestrel/domain';
import { z } from 'zod';
import type { Tx } from '../../db/connection.js';
import { enqueue, jobOf } from '../../platform/jobs.js';

/** The payload of the fan-out job: one event of one customer. */
export const webhookEventPayload = z.object({
  customerId: z.number().int(),
  event: z.enum([...WEBHOOK_EVENTS, 'endpoint.test']),
  eventId: z.string().max(40),
  occurredAt: z.string().max(40),
  data: z.record(z.string(), z.unknown()),
});
export type WebhookEventPayload = z.infer<typeof webhookEventPayload>;

/** The fan-out job's name (jobs.ts holds its handler). */
export const WEBHOOK_EVENT_JOB = 'webhook-event';

/** A new event id (`evt_` and 24 hex characters): a receiver de-duplicates on it. */
export function newEventId(): string {
  return `evt_${randomBytes(12).toString('hex')}`;
}

/**
 * Tells the customer's webhook endpoints of `event` (issue 33): a job enqueued in the caller's
 * transaction `tx`, so the event exists only if the change that caused it commits. The job then
 * finds the endpoints subscribed to it and makes one delivery each. Any role may call it (a
 * subject's withdrawal, an ops user's flag): it reads nothing of the webhooks' tables.
 */
export async function emitWebhookEvent(
  tx: Tx,
  customerId: number,
  event: WebhookEvent,
  data: Record<string, unknown>,
  at: Date,
): Promise<void> {
  await enqueue(
    tx,
    jobOf(
      { name: WEBHOOK_EVENT_JOB, payload: webhookEventPayload },
      { customerId, event, eventId: newEventId(), occurredAt: at.toISOString(), data },
      { wake: 'throttled' },
    ),
  );
}
