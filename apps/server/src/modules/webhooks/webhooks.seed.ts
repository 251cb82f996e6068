import type { DemoSeedContext } from '../../platform/module.js';
import { newEventId } from './webhook-events.js';
import { newWebhookSecret } from './webhooks.service.js';
import { webhookDeliveries, webhookEndpoints } from './webhooks.table.js';

/**
 * Acme Care Ltd's HR system endpoint with a few deliveries (delivered, one failed then
 * delivered, one test), so the webhooks screen shows its log after a fresh start. Switched off:
 * its address is not a real one. Its secret is stored plain and sealed by the start
 * (sealStoredSecrets).
 */
export async function seedWebhooksDemo(ctx: DemoSeedContext): Promise<void> {
  const { tx } = ctx;
  const customerId = ctx.customers.acme;
  const now = ctx.clock.now().getTime();
  const at = (hoursAgo: number) => new Date(now - hoursAgo * 3_600_000);
  const [endpoint] = await tx
    .insert(webhookEndpoints)
    .values({
      customerId,
      url: 'https://hr.acme-care.test/kestrel/webhooks',
      description: 'HR system: new starters',
      events: ['case.created', 'case.completed', 'flag.raised'],
      secret: newWebhookSecret(),
      isEnabled: false,
      createdAt: at(72),
      updatedAt: at(1),
    })
    .returning();
  if (!endpoint) throw new Error('demo webhook endpoint not made');
  const delivery = (
    event: string,
    hoursAgo: number,
    outcome: {
      status: 'delivered' | 'failed';
      code: number | null;
      attempts: number;
      error?: string;
    },
  ) => {
    const id = newEventId();
    return {
      customerId,
      endpointId: endpoint.id,
      event,
      eventId: id,
      payload: {
        id,
        type: event,
        created: Math.floor(at(hoursAgo).getTime() / 1000),
        data: event === 'endpoint.test' ? { endpoint: { id: endpoint.id } } : { case: { id: 1 } },
      },
      status: outcome.status,
      attempts: outcome.attempts,
      responseStatus: outcome.code,
      responseExcerpt:
        outcome.code === 200 ? '{"received":true}' : outcome.code ? 'Bad gateway' : '',
      latencyMs: outcome.code ? 180 : null,
      error: outcome.error ?? '',
      createdAt: at(hoursAgo),
      lastAttemptAt: at(hoursAgo - 0.1),
      nextAttemptAt: null,
      deliveredAt: outcome.status === 'delivered' ? at(hoursAgo - 0.1) : null,
    };
  };
  await tx.insert(webhookDeliveries).values([
    delivery('endpoint.test', 72, { status: 'delivered', code: 200, attempts: 1 }),
    delivery('case.created', 48, { status: 'delivered', code: 200, attempts: 1 }),
    delivery('case.created', 30, { status: 'delivered', code: 200, attempts: 3 }),
    delivery('case.completed', 26, { status: 'failed', code: 502, attempts: 7 }),
    delivery('flag.raised', 2, {
      status: 'failed',
      code: null,
      attempts: 1,
      error: 'getaddrinfo ENOTFOUND hr.acme-care.test',
    }),
  ]);
}
