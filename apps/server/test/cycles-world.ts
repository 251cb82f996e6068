import type { SubscriptionBillingOut } from '@kestrel/domain';
import { expect } from 'vitest';
import type { Tx } from '../src/db/connection.js';
import { pricebookPrices, pricebooks } from '../src/modules/pricebooks/pricebooks.table.js';
import type { Client, TestApp } from './helpers.js';

export const DAY = 86_400_000;

/** A price book of `customerId` (invoiced or paid by card) pricing the DBS update at £13.00. */
export async function priceDbsUpdate(tx: Tx, customerId: number, invoiced: boolean) {
  const [pb] = await tx
    .insert(pricebooks)
    .values({ customerId, name: 'Prices', validFrom: '2000-01-01', invoiced })
    .returning();
  await tx.insert(pricebookPrices).values({
    customerId,
    pricebookId: pb?.id ?? 0,
    activityType: 'dbs-update',
    level: '',
    amountPence: 1300,
  });
}

/**
 * The subscription tests' API calls on the app `app()` returns (the file's, once its beforeAll
 * has built it).
 */
export function subscriptionCalls(app: () => TestApp) {
  /** One API call as `client` (its cookie and CSRF header). */
  const call = (client: Client, method: 'GET' | 'POST', url: string, payload?: object) =>
    app().app.inject({
      method,
      url,
      headers: client.headers,
      ...(payload === undefined ? {} : { payload }),
    });

  /** GET /api/subscriptions/billing/ of the subscriptions `ids` as `c` (200). */
  async function billing(c: Client, ids: number[]): Promise<SubscriptionBillingOut[]> {
    const res = await call(c, 'GET', `/api/subscriptions/billing/?subscription=${ids.join(',')}`);
    expect(res.statusCode, res.body).toBe(200);
    return (res.json() as { results: SubscriptionBillingOut[] }).results;
  }

  /**
   * A cycle of the process (a DBS update every 6 months, billed yearly) and the subject's
   * subscription to it, starting tomorrow, made as `client`; answers the subscription's id.
   */
  async function subscribe(client: Client, subject: number, processId: number) {
    const cycle = await call(client, 'POST', `/api/processes/${processId}/cycles/`, {
      name: `Update service ${subject}`,
      requirements: ['dbs-update'],
      repeat_interval: 6,
      repeat_unit: 'monthly',
      billing_interval: 1,
      billing_triggered: 'yearly',
    });
    expect(cycle.statusCode, cycle.body).toBe(201);
    const made = await call(client, 'POST', `/api/subjects/${subject}/subscriptions/`, {
      cycle: cycle.json().id,
      starts_at: new Date(app().clock.now().getTime() + DAY).toISOString(),
    });
    expect(made.statusCode, made.body).toBe(201);
    return made.json().id as number;
  }

  return { call, billing, subscribe };
}
