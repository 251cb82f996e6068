import { createHmac } from 'node:crypto';
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createNotifyClient, notifyKeyParts } from './client.js';
import { SmsError } from './provider.js';

// The GOV.UK Notify client against a local server in Notify's shape: POST /v2/notifications/sms
// with a JWT (HS256, iss = the service id, iat) checked here from the documented scheme.
const serviceId = '26785a09-ab16-4eb0-8407-a37497a57506';
const secret = '3d844edf-8d35-48ac-975b-e847b4f122b0';
const apiKey = `kestrel_test-${serviceId}-${secret}`;
const seen: { path: string; auth: string; body: Record<string, unknown> }[] = [];
let answer = 201;
let base = '';
const server = createServer((req: IncomingMessage, res) => {
  let raw = '';
  req.on('data', (c) => {
    raw += c;
  });
  req.on('end', () => {
    seen.push({
      path: req.url ?? '',
      auth: req.headers.authorization ?? '',
      body: JSON.parse(raw),
    });
    res.writeHead(answer, { 'content-type': 'application/json' });
    res.end(answer === 201 ? '{"id":"x"}' : '{"errors":[{"error":"BadRequestError"}]}');
  });
});

beforeAll(async () => {
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((r) => server.close(() => r())));

const message = {
  to: '+447911123456',
  body: 'Kestrel Checks: Acme is waiting for you.',
  templateId: 'f33517ff-2a88-4f6e-b855-c550268ce08a',
  personalisation: { first_name: 'Sam' },
  brand: 'Kestrel Checks',
  reference: 'case-7',
};

/** Verifies a Notify bearer token independently (node:crypto, RFC 7519 HS256). */
function verify(auth: string): Record<string, unknown> {
  const [scheme, token = ''] = auth.split(' ');
  expect(scheme).toBe('Bearer');
  const [h = '', p = '', sig = ''] = token.split('.');
  const want = createHmac('sha256', secret).update(`${h}.${p}`).digest('base64url');
  expect(sig).toBe(want);
  expect(JSON.parse(Buffer.from(h, 'base64url').toString())).toEqual({ typ: 'JWT', alg: 'HS256' });
  return JSON.parse(Buffer.from(p, 'base64url').toString());
}

describe('the GOV.UK Notify client', () => {
  it('reads the service id and secret from the API key', () => {
    expect(notifyKeyParts(apiKey)).toEqual({ serviceId, secret });
    expect(() => notifyKeyParts('short')).toThrow();
  });

  it('posts the number, template and personalisation with a signed token', async () => {
    const client = createNotifyClient({
      apiKey,
      baseUrl: base,
      now: () => 1_760_000_000,
      templates: { reminder: 'tpl' },
    });
    await client.send(message);
    const [req] = seen;
    expect(req?.path).toBe('/v2/notifications/sms');
    expect(req?.body).toEqual({
      phone_number: '+447911123456',
      template_id: message.templateId,
      personalisation: { first_name: 'Sam' },
      reference: 'case-7',
    });
    expect(verify(req?.auth ?? '')).toEqual({ iss: serviceId, iat: 1_760_000_000 });
  });

  it('a 400 is a lasting refusal, a 500 a temporary one', async () => {
    const client = createNotifyClient({ apiKey, baseUrl: base, templates: { reminder: 'tpl' } });
    answer = 400;
    const lasting = await client.send(message).catch((e) => e);
    expect(lasting).toBeInstanceOf(SmsError);
    expect(lasting).toMatchObject({ temporary: false });
    expect(String(lasting.message)).toContain('Notify answered 400');
    answer = 503;
    const temporary = await client.send(message).catch((e) => e);
    expect(temporary).toMatchObject({ temporary: true });
    answer = 201;
  });
});
