// A card saved through the payments simulator's setup flow, as Stripe.js and the screen do it:
// the server's setup intent, confirmed at the simulator with a test card number, then recorded.
import type { PaymentMethodOut, SetupIntentOut } from '@kestrel/domain';
import type { FastifyInstance } from 'fastify';
import { expect } from 'vitest';
import { TEST_CARDS } from '../src/providers/payments/simulator.js';
import type { Client } from './helpers.js';

/** Where the simulator sends the browser back after a 3-D Secure step. */
export const CARD_RETURN_URL = '/payment-settings/add-payment-method';

const form = (fields: Record<string, string>) => new URLSearchParams(fields).toString();

/** A setup intent for `c`'s customer, confirmed in the simulator with `card`. */
export async function confirmCard(app: FastifyInstance, c: Client, card: string) {
  const res = await app.inject({
    method: 'POST',
    url: '/api/payment-methods/setup-intent/',
    headers: c.headers,
  });
  expect(res.statusCode).toBe(201);
  const setup = res.json() as SetupIntentOut;
  const confirm = await app.inject({
    method: 'POST',
    url: `${setup.api_base}/v1/setup_intents/${setup.id}/confirm`,
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    payload: form({
      key: setup.publishable_key,
      client_secret: setup.client_secret,
      'payment_method_data[card][number]': card,
      'payment_method_data[card][exp_month]': '12',
      'payment_method_data[card][exp_year]': '34',
      'payment_method_data[card][cvc]': '123',
      return_url: CARD_RETURN_URL,
    }),
  });
  return { setup, confirm };
}

/** A card saved and recorded for `c`'s customer. */
export async function saveCard(
  app: FastifyInstance,
  c: Client,
  card: string = TEST_CARDS.success,
): Promise<PaymentMethodOut> {
  const { setup, confirm } = await confirmCard(app, c, card);
  expect(confirm.json()).toMatchObject({ status: 'succeeded' });
  const res = await app.inject({
    method: 'POST',
    url: '/api/payment-methods/',
    headers: c.headers,
    payload: { setup_intent: setup.id },
  });
  expect(res.statusCode).toBe(201);
  return res.json() as PaymentMethodOut;
}
