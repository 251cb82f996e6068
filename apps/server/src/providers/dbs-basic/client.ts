import { type ApplicationUpdate, applicationUpdateSchema } from '@kestrel/domain';
import type { DisclosureApplication, DisclosureProvider } from './provider.js';
import { ProviderError } from './provider.js';

/*
 * The real criminal-record provider over HTTPS (JSON): `POST {base}/applications` with the
 * application (an `Idempotency-Key` header: a retried submission makes no second application),
 * `GET {base}/applications/{reference}`; both answer the application's state (the
 * `applicationUpdateSchema` shape, with the certificate's assembled and despatched dates and the
 * disclosure's manual certificate flag when the provider gives them: the engine maps them to the
 * result as it does the simulator's). Bearer key auth. The message names of the provider's own
 * specification are unconfirmed (PROVIDERS.md): this is the shape the engine relies on.
 */

export interface HttpDisclosureOptions {
  name: 'dbs-basic' | 'ebulk';
  baseUrl: string;
  apiKey: string;
  fetch?: typeof fetch;
}

export class HttpDisclosureClient implements DisclosureProvider {
  readonly name: 'dbs-basic' | 'ebulk';
  private readonly fetch: typeof fetch;

  constructor(private readonly options: HttpDisclosureOptions) {
    this.name = options.name;
    this.fetch = options.fetch ?? fetch;
  }

  submit(application: DisclosureApplication, signal: AbortSignal): Promise<ApplicationUpdate> {
    return this.call('POST', '/applications', signal, application, application.idempotency_key);
  }

  status(reference: string, signal: AbortSignal): Promise<ApplicationUpdate> {
    return this.call('GET', `/applications/${encodeURIComponent(reference)}`, signal);
  }

  private async call(
    method: 'GET' | 'POST',
    path: string,
    signal: AbortSignal,
    body?: unknown,
    idempotencyKey?: string,
  ): Promise<ApplicationUpdate> {
    let res: Response;
    try {
      res = await this.fetch(`${this.options.baseUrl.replace(/\/$/, '')}${path}`, {
        method,
        signal,
        headers: {
          authorization: `Bearer ${this.options.apiKey}`,
          accept: 'application/json',
          ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
          ...(idempotencyKey ? { 'idempotency-key': idempotencyKey } : {}),
        },
        ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
      });
    } catch {
      throw new ProviderError(
        signal.aborted ? 'The provider did not answer in time.' : `The provider is unreachable.`,
        true,
      );
    }
    if (!res.ok) {
      const retryable = res.status >= 500 || res.status === 429 || res.status === 408;
      throw new ProviderError(`The provider answered ${res.status}.`, retryable, res.status);
    }
    const parsed = applicationUpdateSchema.safeParse(await res.json().catch(() => null));
    if (!parsed.success) throw new ProviderError('The provider answered malformed data.', true);
    return parsed.data;
  }
}

/** The basic-disclosure service's client. */
export function createDbsBasicClient(o: Omit<HttpDisclosureOptions, 'name'>) {
  return new HttpDisclosureClient({ ...o, name: 'dbs-basic' });
}
