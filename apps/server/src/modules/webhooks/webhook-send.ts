import { createHmac } from 'node:crypto';
import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import http from 'node:http';
import https from 'node:https';
import { BlockList, isIP, type LookupFunction } from 'node:net';
import { WEBHOOK_SIGNATURE_HEADER } from '@kestrel/domain';

/** A delivery attempt gives up on an answer after this many milliseconds. */
export const WEBHOOK_TIMEOUT_MS = 10_000;
/** How much of the receiver's answer the log keeps. */
export const RESPONSE_EXCERPT_MAX = 500;
export const PRIVATE_ADDRESS = 'The address is private, loopback or link-local.';

/** A delivery's error when the receiver did not answer in full within the time allowed. */
export const NO_ANSWER = 'No answer in time.';

/** Private, loopback, link-local, shared, multicast and reserved ranges (IPv4 and IPv6). */
const blocked = new BlockList();
for (const [net, bits] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
] as const) {
  blocked.addSubnet(net, bits, 'ipv4');
}
for (const [net, bits] of [
  // unspecified, loopback and the IPv4-compatible addresses (::a.b.c.d, deprecated)
  ['::', 96],
  ['fc00::', 7],
  // site-local (deprecated, still routed privately by some networks)
  ['fec0::', 10],
  ['fe80::', 10],
  ['ff00::', 8],
  ['64:ff9b::', 96],
] as const) {
  blocked.addSubnet(net, bits, 'ipv6');
}

/** True for an address no webhook may reach unless the installation allows private ones. */
export function isPrivateAddress(address: string): boolean {
  const family = isIP(address);
  if (family === 4) return blocked.check(address, 'ipv4');
  if (family !== 6) return true;
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (mapped?.[1]) return blocked.check(mapped[1], 'ipv4');
  return blocked.check(address, 'ipv6');
}

/** The host of a URL as an IP literal (brackets removed), or null for a name. */
export function literalHost(url: string): string | null {
  const host = new URL(url).hostname.replace(/^\[|\]$/g, '');
  return isIP(host) ? host : null;
}

/**
 * The signature header's value of `body` sent at `timestamp` (unix seconds): `t=<timestamp>,
 * v1=<hex HMAC-SHA256 of "<timestamp>.<body>" under the endpoint's secret>` (Stripe's scheme).
 */
export function signDelivery(secret: string, timestamp: number, body: string): string {
  const v1 = createHmac('sha256', secret).update(`${timestamp}.${body}`).digest('hex');
  return `t=${timestamp},v1=${v1}`;
}

export interface SendOutcome {
  ok: boolean;
  status: number | null;
  excerpt: string;
  latencyMs: number;
  error: string;
}

/**
 * A DNS lookup that refuses private addresses: checked on the address the connection is made
 * to, so a name that resolves elsewhere the second time (DNS rebinding) is refused too.
 */
function guardedLookup(allowPrivate: boolean): LookupFunction {
  return (hostname, options, callback) => {
    dnsLookup(hostname, { ...options, all: true }, (err, addresses: LookupAddress[]) => {
      if (err) return callback(err, '', 0);
      const ok = addresses.filter((a) => allowPrivate || !isPrivateAddress(a.address));
      const first = ok[0];
      if (!first) return callback(new Error(PRIVATE_ADDRESS), '', 0);
      if (options.all) return callback(null, ok);
      return callback(null, first.address, first.family);
    });
  };
}

/** POSTs `body` to `url` signed with `secret` at `timestamp`; never throws. */
export function sendWebhook(opts: {
  url: string;
  secret: string;
  body: string;
  timestamp: number;
  eventId: string;
  allowPrivate: boolean;
  timeoutMs?: number;
}): Promise<SendOutcome> {
  const started = performance.now();
  const done = (o: Omit<SendOutcome, 'latencyMs'>): SendOutcome => ({
    ...o,
    latencyMs: Math.round(performance.now() - started),
  });
  return new Promise((settle) => {
    // the whole exchange within the time allowed (the socket's own timeout is only its idle
    // time: a receiver trickling its answer would hold the delivery for ever)
    let deadline: NodeJS.Timeout | undefined;
    const resolve = (o: SendOutcome) => {
      clearTimeout(deadline);
      settle(o);
    };
    let url: URL;
    try {
      url = new URL(opts.url);
    } catch {
      resolve(done({ ok: false, status: null, excerpt: '', error: 'Invalid URL.' }));
      return;
    }
    const literal = literalHost(opts.url);
    if (literal && !opts.allowPrivate && isPrivateAddress(literal)) {
      resolve(done({ ok: false, status: null, excerpt: '', error: PRIVATE_ADDRESS }));
      return;
    }
    const client = url.protocol === 'https:' ? https : http;
    const req = client.request(
      url,
      {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          'user-agent': 'Kestrel-Webhooks/1.0',
          [WEBHOOK_SIGNATURE_HEADER]: signDelivery(opts.secret, opts.timestamp, opts.body),
          'kestrel-event-id': opts.eventId,
        },
        lookup: guardedLookup(opts.allowPrivate),
        timeout: opts.timeoutMs ?? WEBHOOK_TIMEOUT_MS,
      },
      (res) => {
        const status = res.statusCode ?? 0;
        const chunks: Buffer[] = [];
        let size = 0;
        res.on('data', (c: Buffer) => {
          if (size < RESPONSE_EXCERPT_MAX * 4) chunks.push(c);
          size += c.length;
        });
        res.on('end', () => {
          const excerpt = Buffer.concat(chunks).toString('utf8').slice(0, RESPONSE_EXCERPT_MAX);
          resolve(done({ ok: status >= 200 && status < 300, status, excerpt, error: '' }));
        });
        res.on('error', (e) =>
          resolve(done({ ok: false, status, excerpt: '', error: e.message.slice(0, 200) })),
        );
      },
    );
    req.on('timeout', () => req.destroy(new Error(NO_ANSWER)));
    deadline = setTimeout(() => {
      resolve(done({ ok: false, status: null, excerpt: '', error: NO_ANSWER }));
      req.destroy();
    }, opts.timeoutMs ?? WEBHOOK_TIMEOUT_MS);
    req.on('error', (e) =>
      resolve(done({ ok: false, status: null, excerpt: '', error: e.message.slice(0, 200) })),
    );
    req.end(opts.body);
  });
}
