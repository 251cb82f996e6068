import { and, eq, sql } from 'drizzle-orm';
import { z } from 'zod';
import type { AppDeps } from '../../app-deps.js';
import { emailJob } from '../../jobs/send-email.js';
import { jobActor, serviceJob } from '../../jobs/service-job.js';
import { recordAudit } from '../../platform/audit.js';
import { brandedEmail } from '../../platform/email-template.js';
import { type JobKind, type JobRequest, jobOf } from '../../platform/jobs.js';
import { unseal } from '../../platform/sealed-secrets.js';
import { runInTenant, type ServiceContext } from '../../platform/service-context.js';
import { customerAdministrators } from '../expiry-calendar/expiry-reminders-job.js';
import { customerEmailSite } from '../users/users.service.js';
import {
  WEBHOOK_EVENT_JOB,
  type WebhookEventPayload,
  webhookEventPayload,
} from './webhook-events.js';
import { sendWebhook } from './webhook-send.js';
import {
  addDelivery,
  type DeliveryRow,
  WEBHOOK_ENDPOINT_CT,
  WEBHOOK_SECRET_PURPOSE,
} from './webhooks.service.js';
import { webhookDeliveries, webhookEndpoints } from './webhooks.table.js';

/** A delivery is retried for this long after it was made, then given up (failed). */
export const WEBHOOK_RETRY_HOURS = 24;
/** The first retry's delay (seconds); each next one is 4 times longer (1, 4, 16, 64 minutes ...). */
const FIRST_RETRY_SECONDS = 60;
export const ENDPOINT_DISABLED_REASON = 'Disabled after its deliveries failed for 24 hours.';

/**
 * When to try a delivery again after its `attempts`-th failed attempt at `now`, or null when its
 * 24 hours are up: 1, 4, 16, 64, 256 and 1024 minutes after each failure, the last try at the
 * 24th hour (seven attempts in all).
 */
export function nextAttemptAt(createdAt: Date, attempts: number, now: Date): Date | null {
  const end = createdAt.getTime() + WEBHOOK_RETRY_HOURS * 3_600_000;
  if (now.getTime() >= end) return null;
  const delay = FIRST_RETRY_SECONDS * 1000 * 4 ** Math.max(0, attempts - 1);
  return new Date(Math.min(now.getTime() + delay, end));
}

const deliveryPayload = z.object({
  customerId: z.number().int(),
  deliveryId: z.number().int(),
  /** A test-send or a resend: tried even on a disabled endpoint, and only once. */
  manual: z.boolean().default(false),
});
type DeliveryJob = z.infer<typeof deliveryPayload>;

const DELIVERY_JOB = 'webhook-delivery';

/** The job that makes the next attempt of a delivery (after `afterSeconds`). */
export function deliveryJob(data: DeliveryJob, afterSeconds = 0): JobRequest {
  return jobOf({ name: DELIVERY_JOB, payload: deliveryPayload }, data, {
    ...(afterSeconds > 0 ? { startAfterSeconds: Math.ceil(afterSeconds) } : {}),
  });
}

/** The body sent for a delivery: the event's envelope. */
export function deliveryBody(d: DeliveryRow): string {
  return JSON.stringify(d.payload);
}

/**
 * One attempt of delivery `deliveryId`: read (customer's tenant), POST signed (no transaction
 * open), then record the outcome in one transaction: delivered, or the next retry's job, or,
 * when its 24 hours are up, failed, its endpoint disabled and the customer's administrators told
 * by email. Returns the delivery as left, or null when there was nothing to do.
 */
export async function attemptDelivery(
  deps: Pick<AppDeps, 'db' | 'clock' | 'config' | 'secrets'>,
  job: DeliveryJob,
): Promise<DeliveryRow | null> {
  const actor = jobActor(job.customerId);
  const found = await runInTenant(deps, actor, async ({ tx }) => {
    const [row] = await tx
      .select({ d: webhookDeliveries, e: webhookEndpoints })
      .from(webhookDeliveries)
      .innerJoin(
        webhookEndpoints,
        and(
          eq(webhookEndpoints.customerId, webhookDeliveries.customerId),
          eq(webhookEndpoints.id, webhookDeliveries.endpointId),
        ),
      )
      .where(eq(webhookDeliveries.id, job.deliveryId));
    return row ?? null;
  });
  if (found?.d.status !== 'pending') return null;
  if (!found.e.isEnabled && !job.manual) return null;
  const now = deps.clock.now();
  const outcome = await sendWebhook({
    url: found.e.url,
    secret: unseal(deps.secrets, WEBHOOK_SECRET_PURPOSE, found.e.secret),
    body: deliveryBody(found.d),
    timestamp: Math.floor(now.getTime() / 1000),
    eventId: found.d.eventId,
    allowPrivate: deps.config.webhooksAllowPrivate === true,
  });
  return runInTenant(deps, actor, (ctx) =>
    recordOutcome(ctx, found.d, found.e.url, outcome, job, deps.config.publicUrl),
  );
}

async function recordOutcome(
  ctx: ServiceContext,
  d: DeliveryRow,
  url: string,
  outcome: Awaited<ReturnType<typeof sendWebhook>>,
  job: DeliveryJob,
  publicUrl: string,
): Promise<DeliveryRow | null> {
  const { tx, clock } = ctx;
  const now = clock.now();
  const attempts = d.attempts + 1;
  const next = outcome.ok || job.manual ? null : nextAttemptAt(d.createdAt, attempts, now);
  const status = outcome.ok ? 'delivered' : next ? 'pending' : 'failed';
  const [row] = await tx
    .update(webhookDeliveries)
    .set({
      attempts,
      status,
      responseStatus: outcome.status,
      responseExcerpt: outcome.excerpt,
      latencyMs: outcome.latencyMs,
      error: outcome.error,
      lastAttemptAt: now,
      nextAttemptAt: next,
      deliveredAt: outcome.ok ? now : null,
    })
    .where(
      and(
        eq(webhookDeliveries.customerId, d.customerId),
        eq(webhookDeliveries.id, d.id),
        eq(webhookDeliveries.attempts, d.attempts),
      ),
    )
    .returning();
  // another attempt recorded first (a duplicate job): leave it as it is
  if (!row) return null;
  if (next) {
    await ctx.enqueue(
      deliveryJob({ ...job, manual: false }, (next.getTime() - now.getTime()) / 1000),
    );
  } else if (status === 'failed' && !job.manual) {
    await disableEndpoint(ctx, d, url, publicUrl);
  }
  return row;
}

/**
 * Disables the endpoint after a delivery failed for 24 hours; tells the administrators who have
 * notifications on.
 */
async function disableEndpoint(
  ctx: ServiceContext,
  d: DeliveryRow,
  url: string,
  publicUrl: string,
) {
  const { tx } = ctx;
  const [was] = await tx
    .update(webhookEndpoints)
    .set({ isEnabled: false, disabledReason: ENDPOINT_DISABLED_REASON, updatedAt: ctx.clock.now() })
    .where(
      and(
        eq(webhookEndpoints.customerId, d.customerId),
        eq(webhookEndpoints.id, d.endpointId),
        eq(webhookEndpoints.isEnabled, true),
      ),
    )
    .returning();
  if (!was) return;
  await recordAudit(tx, ctx.actor, {
    verb: 'updated',
    contentType: WEBHOOK_ENDPOINT_CT,
    objectId: was.id,
    objectRepr: url.slice(0, 200),
    changes: { is_enabled: [true, false], disabled_reason: ENDPOINT_DISABLED_REASON },
  });
  // the administrators whose profile's `notifications` is on (issue 33: it decides what product
  // users receive; this is no security message, which always goes), in the customer's brand
  const admins = await customerAdministrators(ctx, d.customerId);
  const site = await customerEmailSite(tx, d.customerId, undefined, publicUrl);
  for (const a of admins) {
    await ctx.enqueue(
      emailJob(
        brandedEmail(site, {
          to: a.email,
          subject: 'A webhook endpoint has been disabled',
          greeting: `Hello ${a.name || a.email},`,
          paragraphs: [
            `${site.brand.name} could not deliver events to ${url} for 24 hours, so the endpoint has been disabled and no more events will be sent to it.`,
            'Once the receiver answers again, enable the endpoint under Organisation account, Webhooks.',
          ],
          action: { label: 'Open the webhooks', url: `${site.publicUrl}/customer-account` },
        }),
      ),
    );
  }
}

/** Fans an event out: one delivery (and its job) per enabled endpoint subscribed to it. */
export async function fanOutEvent(ctx: ServiceContext, e: WebhookEventPayload): Promise<number[]> {
  const endpoints = await ctx.tx
    .select()
    .from(webhookEndpoints)
    .where(
      and(eq(webhookEndpoints.isEnabled, true), sql`${e.event} = any(${webhookEndpoints.events})`),
    );
  const payload = {
    id: e.eventId,
    type: e.event,
    created: Math.floor(new Date(e.occurredAt).getTime() / 1000),
    data: e.data,
  };
  const ids: number[] = [];
  for (const endpoint of endpoints) {
    const d = await addDelivery(
      ctx.tx,
      endpoint,
      { event: e.event, eventId: e.eventId, payload },
      ctx.clock.now(),
    );
    await ctx.enqueue(deliveryJob({ customerId: e.customerId, deliveryId: d.id, manual: false }));
    ids.push(d.id);
  }
  return ids;
}

/** `webhook-event`: the fan-out, in the customer's tenant. */
export const webhookEventJob = serviceJob<WebhookEventPayload>({
  name: WEBHOOK_EVENT_JOB,
  payload: webhookEventPayload,
  retry: { limit: 5, delaySeconds: 30, backoff: true },
  expireInSeconds: 120,
  customerOf: (e) => e.customerId,
  handle: async (e, ctx) => {
    await fanOutEvent(ctx, e);
  },
});

/**
 * `webhook-delivery`: one attempt (its retries are its own jobs, on the 24-hour schedule above;
 * the queue's retry only covers a crash mid-attempt).
 */
export const webhookDeliveryJob: JobKind<DeliveryJob, AppDeps> = {
  name: DELIVERY_JOB,
  payload: deliveryPayload,
  retry: { limit: 2, delaySeconds: 60, backoff: true },
  expireInSeconds: 60,
  workers: 2,
  handle: async (data, deps) => {
    await attemptDelivery(deps, data);
  },
};
