import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { buildTestApp, type TestApp } from '../../test/helpers.js';
import { NotFoundError } from './errors.js';
import {
  signedWebhook,
  signWebhook,
  verifyWebhookSignature,
  WEBHOOK_TOLERANCE_SECONDS,
} from './webhooks.js';

// The one signed-webhook mechanism (issue 27): the scheme, then a user of it declared as the
// three real ones are (its path, secret, header, schema and receiver), served by the app.

describe('the signature scheme', () => {
  const body = '{"event_id":"e-1"}';
  const now = 1_800_000_000;

  it('accepts its own signature within the window, in either direction', () => {
    expect(verifyWebhookSignature('s', signWebhook('s', now, body), body, now)).toBe('ok');
    const edge = WEBHOOK_TOLERANCE_SECONDS;
    expect(verifyWebhookSignature('s', signWebhook('s', now - edge, body), body, now)).toBe('ok');
    expect(verifyWebhookSignature('s', signWebhook('s', now + edge, body), body, now)).toBe('ok');
  });

  it('refuses what is unsigned, wrongly signed, stale or malformed', () => {
    const at = (t: number, secret = 's', signed = body) => signWebhook(secret, t, signed);
    expect(verifyWebhookSignature('s', undefined, body, now)).toBe('missing');
    expect(verifyWebhookSignature('', at(now), body, now)).toBe('missing');
    expect(verifyWebhookSignature('s', at(now, 'other'), body, now)).toBe('mismatch');
    expect(verifyWebhookSignature('s', at(now), `${body} `, now)).toBe('mismatch');
    expect(verifyWebhookSignature('s', at(now - 301), body, now)).toBe('expired');
    expect(verifyWebhookSignature('s', at(now + 301), body, now)).toBe('expired');
    expect(verifyWebhookSignature('s', 't=x,v1=zz', body, now)).toBe('malformed');
    expect(verifyWebhookSignature('s', `v1=${'a'.repeat(64)}`, body, now)).toBe('malformed');
    expect(verifyWebhookSignature('s', `t=${now}`, body, now)).toBe('malformed');
  });

  it('accepts any of several signatures (a provider rolling its secret), each in constant time', () => {
    const [, v1old] = signWebhook('old', now, body).split(',v1=');
    const header = `${signWebhook('new', now, body)},v1=${v1old}`;
    expect(verifyWebhookSignature('old', header, body, now)).toBe('ok');
    expect(verifyWebhookSignature('new', header, body, now)).toBe('ok');
    expect(verifyWebhookSignature('third', header, body, now)).toBe('mismatch');
  });

  it("reads the signature under a provider's own name when told", () => {
    const header = signWebhook('s', now, body, 'sha256');
    expect(header.startsWith(`t=${now},sha256=`)).toBe(true);
    expect(verifyWebhookSignature('s', header, body, now, 'sha256')).toBe('ok');
    expect(verifyWebhookSignature('s', header, body, now)).toBe('malformed');
  });
});

// A user of the mechanism: two tenants' orders, an inbox keyed by event id, a job queue.
const SECRET = 'test-webhook-secret';
const orders = new Map([
  ['ord-acme', 'acme'],
  ['ord-other', 'other'],
]);
const inbox = new Map<string, { order: string; status: string }>();
const jobs: string[] = [];
let secretConfigured = true;
const eventSchema = z.object({
  event_id: z.string().min(1),
  order: z.string().min(1),
  status: z.enum(['paid', 'failed']),
});

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp({
    extraModules: [
      {
        name: 'webhook-user',
        routes: (app) =>
          signedWebhook<{ tenant: string }, z.infer<typeof eventSchema>, { status: string }>(app, {
            path: '/webhooks/test/:tenant/',
            refusal: 'Invalid test signature.',
            signing: (request) =>
              request.params.tenant === 'nobody'
                ? null
                : {
                    secret: secretConfigured ? SECRET : null,
                    header: 'x-test-signature',
                    schema: eventSchema,
                  },
            receive: async (request, event) => {
              // another tenant's object is not this endpoint's
              if (orders.get(event.order) !== request.params.tenant) throw new NotFoundError();
              if (inbox.has(event.event_id)) return { status: 'duplicate' };
              inbox.set(event.event_id, { order: event.order, status: event.status });
              jobs.push(event.event_id);
              return { status: 'stored' };
            },
          }),
      },
    ],
  });
});
afterAll(() => t.close());

describe('a signed webhook endpoint', () => {
  const now = () => Math.floor(t.clock.now().getTime() / 1000);
  const post = (body: string, signature?: string, tenant = 'acme') =>
    t.app.inject({
      method: 'POST',
      url: `/webhooks/test/${tenant}/`,
      headers: {
        'content-type': 'application/json',
        ...(signature ? { 'x-test-signature': signature } : {}),
      },
      payload: body,
    });
  const eventBody = (eventId: string, order = 'ord-acme') =>
    JSON.stringify({ event_id: eventId, order, status: 'paid' });
  const refused = { detail: 'Invalid test signature.' };

  it('refuses unsigned, wrongly signed and stale events, storing nothing', async () => {
    const body = eventBody('e-refused');
    const answers = [
      await post(body),
      await post(body, signWebhook('wrong', now(), body)),
      await post(body, signWebhook(SECRET, now(), eventBody('e-other'))),
      await post(body, signWebhook(SECRET, now() - WEBHOOK_TOLERANCE_SECONDS - 1, body)),
      await post(body, signWebhook(SECRET, now() + WEBHOOK_TOLERANCE_SECONDS + 1, body)),
      await post(body, 'v1=deadbeef'),
    ];
    for (const res of answers) expect([res.statusCode, res.json()]).toEqual([401, refused]);
    expect(inbox.size).toBe(0);
    expect(jobs).toEqual([]);
  });

  it('refuses every event while the secret is not configured', async () => {
    secretConfigured = false;
    try {
      const body = eventBody('e-no-secret');
      const res = await post(body, signWebhook(SECRET, now(), body));
      expect([res.statusCode, res.json()]).toEqual([401, refused]);
    } finally {
      secretConfigured = true;
    }
    expect(inbox.has('e-no-secret')).toBe(false);
  });

  it('stores a signed event once and hands it on once: a replay is answered duplicate', async () => {
    const body = eventBody('e-1');
    const first = await post(body, signWebhook(SECRET, now(), body));
    expect([first.statusCode, first.json()]).toEqual([200, { status: 'stored' }]);
    // the same delivery again, and the same event re-signed later
    const again = await post(body, signWebhook(SECRET, now(), body));
    expect([again.statusCode, again.json()]).toEqual([200, { status: 'duplicate' }]);
    t.clock.advance(60_000);
    const later = await post(body, signWebhook(SECRET, now(), body));
    expect(later.json()).toEqual({ status: 'duplicate' });
    expect([...inbox.keys()]).toEqual(['e-1']);
    expect(jobs).toEqual(['e-1']);
    // the captured delivery replayed after the window: refused before the inbox is asked
    const captured = signWebhook(SECRET, now(), body);
    t.clock.advance((WEBHOOK_TOLERANCE_SECONDS + 1) * 1000);
    expect((await post(body, captured)).statusCode).toBe(401);
  });

  it("refuses another tenant's object, a malformed body and an unknown endpoint", async () => {
    const theirs = eventBody('e-theirs', 'ord-other');
    expect((await post(theirs, signWebhook(SECRET, now(), theirs))).statusCode).toBe(404);
    const shapeless = JSON.stringify({ event_id: 'e-x', order: 'ord-acme', status: 'done' });
    const bad = await post(shapeless, signWebhook(SECRET, now(), shapeless));
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toHaveProperty('status');
    const notJson = await post('{', signWebhook(SECRET, now(), '{'));
    expect([notJson.statusCode, notJson.json()]).toEqual([
      400,
      { non_field_errors: ['Malformed JSON.'] },
    ]);
    const body = eventBody('e-nobody');
    expect((await post(body, signWebhook(SECRET, now(), body), 'nobody')).statusCode).toBe(404);
    expect(inbox.has('e-theirs')).toBe(false);
    expect(inbox.has('e-nobody')).toBe(false);
  });
});
