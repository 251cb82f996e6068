import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isPrivateAddress, NO_ANSWER, sendWebhook } from './webhook-send.js';

/*
 * The webhook sender on its own (issue 33): the time allowed covers the whole answer, and the
 * addresses refused.
 */

let server: Server;
let base: string;
const open: ServerResponse[] = [];
const timers: NodeJS.Timeout[] = [];

beforeAll(async () => {
  server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      if (req.url === '/trickle') {
        // headers at once, then a byte every 50 ms, never ending
        res.writeHead(200, { 'content-type': 'text/plain' });
        open.push(res);
        timers.push(setInterval(() => res.write('.'), 50));
        return;
      }
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end('{"received":true}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  for (const t of timers) clearInterval(t);
  for (const r of open) r.destroy();
  await new Promise((resolve) => server.close(resolve));
});

const send = (path: string, timeoutMs: number) =>
  sendWebhook({
    url: `${base}${path}`,
    secret: 'whsec_test',
    body: '{"id":"evt_1"}',
    timestamp: 1_700_000_000,
    eventId: 'evt_1',
    allowPrivate: true,
    timeoutMs,
  });

describe('sendWebhook', () => {
  it('delivers an answer in time, with its excerpt', async () => {
    const out = await send('/hooks', 2_000);
    expect(out).toMatchObject({ ok: true, status: 200, excerpt: '{"received":true}', error: '' });
  });

  it('gives up on a receiver trickling its answer once the time allowed is up', async () => {
    const started = Date.now();
    const out = await send('/trickle', 400);
    expect(out).toMatchObject({ ok: false, status: null, error: NO_ANSWER });
    expect(Date.now() - started).toBeLessThan(2_000);
    expect(out.latencyMs).toBeGreaterThanOrEqual(390);
  });
});

describe('isPrivateAddress', () => {
  it.each([
    ['127.0.0.1', true],
    ['10.9.8.7', true],
    ['100.64.0.1', true],
    ['169.254.169.254', true],
    ['192.168.1.1', true],
    ['::1', true],
    ['::', true],
    ['::7f00:1', true],
    ['::ffff:7f00:1', true],
    ['::ffff:a9fe:a9fe', true],
    ['fe80::1', true],
    ['fd00::1', true],
    ['fec0::1', true],
    ['not an address', true],
    ['8.8.8.8', false],
    ['::ffff:808:808', false],
    ['2606:4700:4700::1111', false],
  ])('%s: %s', (address, blocked) => {
    expect(isPrivateAddress(address)).toBe(blocked);
  });
});
