import { createHash, createHmac } from 'node:crypto';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type S3Settings, S3Storage } from './s3-client.js';

/**
 * The S3 client against a tiny HTTP server standing in for S3: it keeps objects in a map and
 * checks each request's signature (AWS Signature V4) the way S3 does, from the secret key.
 */
interface Seen {
  method: string;
  url: string;
  headers: IncomingMessage['headers'];
  body: Buffer;
}

const SECRET = 'test-secret-key';
const objects = new Map<string, { body: Buffer; type: string }>();
const seen: Seen[] = [];
let server: Server;
let endpoint: string;

const hmac = (key: Buffer | string, data: string) =>
  createHmac('sha256', key).update(data).digest();
const sha256 = (data: string) => createHash('sha256').update(data).digest('hex');

/** Recomputes the request's SigV4 signature from the headers it says it signed. */
function signatureOk(req: Seen): boolean {
  const auth = String(req.headers.authorization);
  const m =
    /^AWS4-HMAC-SHA256 Credential=([^/]+)\/(\d{8})\/([^/]+)\/s3\/aws4_request, SignedHeaders=([^,]+), Signature=([0-9a-f]{64})$/.exec(
      auth,
    );
  if (!m) return false;
  const [, , date, region, signedHeaders, signature] = m;
  const names = String(signedHeaders).split(';');
  const u = new URL(req.url, 'http://x');
  const canonical = [
    req.method,
    u.pathname,
    u.searchParams.toString(),
    ...names.map((n) => `${n}:${String(req.headers[n]).trim()}`),
    '',
    signedHeaders,
    String(req.headers['x-amz-content-sha256']),
  ].join('\n');
  const scope = `${date}/${region}/s3/aws4_request`;
  const toSign = [
    'AWS4-HMAC-SHA256',
    String(req.headers['x-amz-date']),
    scope,
    sha256(canonical),
  ].join('\n');
  let key = hmac(`AWS4${SECRET}`, String(date));
  for (const part of [String(region), 's3', 'aws4_request']) key = hmac(key, part);
  return createHmac('sha256', key).update(toSign).digest('hex') === signature;
}

beforeAll(async () => {
  server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const r: Seen = {
        method: req.method ?? '',
        url: req.url ?? '',
        headers: req.headers,
        body: Buffer.concat(chunks),
      };
      seen.push(r);
      if (!signatureOk(r)) {
        res.writeHead(403).end('<Error><Code>SignatureDoesNotMatch</Code></Error>');
        return;
      }
      const key = decodeURIComponent(r.url);
      if (r.method === 'PUT') {
        if (Number(r.headers['content-length']) !== r.body.length) {
          res.writeHead(400).end();
          return;
        }
        objects.set(key, { body: r.body, type: String(r.headers['content-type']) });
        res.writeHead(200, { etag: '"x"' }).end();
      } else if (r.method === 'GET') {
        const o = objects.get(key);
        if (!o) res.writeHead(404).end('<Error><Code>NoSuchKey</Code></Error>');
        else
          res
            .writeHead(200, { 'content-type': o.type, 'content-length': o.body.length })
            .end(o.body);
      } else if (r.method === 'DELETE') {
        objects.delete(key);
        res.writeHead(204).end();
      } else res.writeHead(405).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  endpoint = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

const settings = (over: Partial<S3Settings> = {}): S3Settings => ({
  endpoint,
  region: 'eu-west-2',
  bucket: 'kestrel-docs',
  accessKeyId: 'AKIDTEST',
  secretAccessKey: SECRET,
  forcePathStyle: true,
  timeoutMs: 5_000,
  ...over,
});

describe('S3Storage', () => {
  it('PUTs a streamed body with its length and type, signed (SigV4, unsigned payload), path style', async () => {
    const s3 = new S3Storage(settings());
    const body = Buffer.from('%PDF-1.4 hello');
    await s3.put(
      'customers/1/cases/2/documents/abc.pdf',
      Readable.from([body.subarray(0, 5), body.subarray(5)]),
      {
        contentType: 'application/pdf',
        size: body.length,
      },
    );
    const put = seen.at(-1);
    expect(put?.method).toBe('PUT');
    expect(put?.url).toBe('/kestrel-docs/customers/1/cases/2/documents/abc.pdf');
    expect(put?.headers['content-length']).toBe(String(body.length));
    expect(put?.headers['content-type']).toBe('application/pdf');
    expect(put?.headers['x-amz-content-sha256']).toBe('UNSIGNED-PAYLOAD');
    expect(String(put?.headers.authorization)).toMatch(
      /^AWS4-HMAC-SHA256 Credential=AKIDTEST\/\d{8}\/eu-west-2\/s3\/aws4_request, SignedHeaders=/,
    );
    expect(put?.body.equals(body)).toBe(true);

    const got = await s3.get('customers/1/cases/2/documents/abc.pdf');
    const chunks: Buffer[] = [];
    for await (const c of got ?? []) chunks.push(Buffer.from(c));
    expect(Buffer.concat(chunks).equals(body)).toBe(true);

    await s3.delete('customers/1/cases/2/documents/abc.pdf');
    expect(seen.at(-1)?.method).toBe('DELETE');
    expect(await s3.get('customers/1/cases/2/documents/abc.pdf')).toBeNull();
  });

  it('fails on a refused request (a wrong secret) instead of losing the document quietly', async () => {
    const s3 = new S3Storage(settings({ secretAccessKey: 'wrong' }));
    await expect(
      s3.put('a/b.png', Readable.from([Buffer.from('x')]), { contentType: 'image/png', size: 1 }),
    ).rejects.toThrow('answered 403');
  });

  it('addresses virtual-hosted buckets and refuses keys it did not make', () => {
    const s3 = new S3Storage(
      settings({ endpoint: 'https://s3.eu-west-2.amazonaws.com', forcePathStyle: false }),
    );
    expect(s3.url('customers/1/x.png')).toBe(
      'https://kestrel-docs.s3.eu-west-2.amazonaws.com/customers/1/x.png',
    );
    expect(() => s3.url('../etc/passwd')).toThrow();
    expect(() => s3.url('customers/1/My File.pdf')).toThrow();
  });
});
