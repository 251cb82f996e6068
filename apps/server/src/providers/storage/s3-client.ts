import { Readable } from 'node:stream';
import type { ReadableStream as WebReadableStream } from 'node:stream/web';
import { AwsClient } from 'aws4fetch';
import { assertKey, type DocumentStorage, type ObjectInfo } from './provider.js';

/** An S3-compatible bucket (AWS S3, MinIO, Ceph, R2...): STORAGE_DRIVER=s3 and S3_* settings. */
export interface S3Settings {
  /** e.g. `https://s3.eu-west-2.amazonaws.com` or `http://127.0.0.1:9000` */
  endpoint: string;
  region: string;
  bucket: string;
  accessKeyId: string;
  secretAccessKey: string;
  /** `endpoint/bucket/key` (MinIO and most self-hosted stores) rather than `bucket.endpoint/key`. */
  forcePathStyle: boolean;
  /** Milliseconds a request may take before it is abandoned. */
  timeoutMs: number;
}

/**
 * The S3 REST API signed with AWS Signature V4 (aws4fetch) over Node's fetch: PUT streams the
 * body with its Content-Length and an unsigned payload hash (S3 then checks the length), GET
 * streams the object back, DELETE removes it.
 */
export class S3Storage implements DocumentStorage {
  readonly kind = 's3' as const;
  private readonly client: AwsClient;

  constructor(private readonly s: S3Settings) {
    this.client = new AwsClient({
      accessKeyId: s.accessKeyId,
      secretAccessKey: s.secretAccessKey,
      region: s.region,
      service: 's3',
      retries: 0,
    });
  }

  /** The object's URL; each key segment is percent-encoded (keys are server-made anyway). */
  url(key: string): string {
    assertKey(key);
    const base = new URL(this.s.endpoint);
    const path = key.split('/').map(encodeURIComponent).join('/');
    const root = base.pathname.replace(/\/$/, '');
    if (this.s.forcePathStyle) {
      return `${base.origin}${root}/${encodeURIComponent(this.s.bucket)}/${path}`;
    }
    return `${base.protocol}//${this.s.bucket}.${base.host}${root}/${path}`;
  }

  private async send(key: string, init: RequestInit & { headers?: Record<string, string> }) {
    const signed = await this.client.sign(this.url(key), {
      ...init,
      headers: { 'x-amz-content-sha256': 'UNSIGNED-PAYLOAD', ...init.headers },
    });
    return fetch(signed, { signal: AbortSignal.timeout(this.s.timeoutMs) });
  }

  async put(key: string, body: Readable, info: ObjectInfo): Promise<void> {
    const res = await this.send(key, {
      method: 'PUT',
      headers: { 'content-type': info.contentType, 'content-length': String(info.size) },
      body: Readable.toWeb(body) as ReadableStream<Uint8Array>,
    });
    await res.body?.cancel();
    if (!res.ok) throw new Error(`S3 PUT ${key} answered ${res.status}`);
  }

  async get(key: string): Promise<Readable | null> {
    const res = await this.send(key, { method: 'GET' });
    if (res.status === 404) {
      await res.body?.cancel();
      return null;
    }
    if (!res.ok || !res.body) {
      await res.body?.cancel();
      throw new Error(`S3 GET ${key} answered ${res.status}`);
    }
    return Readable.fromWeb(res.body as WebReadableStream<Uint8Array>);
  }

  async delete(key: string): Promise<void> {
    const res = await this.send(key, { method: 'DELETE' });
    await res.body?.cancel();
    if (!res.ok && res.status !== 404) throw new Error(`S3 DELETE ${key} answered ${res.status}`);
  }
}
