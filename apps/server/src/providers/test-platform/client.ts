import {
  type KnowledgeTestProvider,
  ProviderError,
  TEST_PLATFORM,
  type TestInvitation,
  type TestInvitationRequest,
  testInvitationSchema,
} from './provider.js';

/*
 * The real test platform over HTTPS (JSON, `X-Api-Key`): `POST {base}/v1/invitations` with the
 * request (its `Idempotency-Key` the reference: a retried invitation makes no second one) and
 * `GET {base}/v1/invitations/{id}`; both answer the invitation (testInvitationSchema).
 */
export interface TestPlatformClientOptions {
  baseUrl: string;
  apiKey: string;
  fetch?: typeof fetch;
}

export function createTestPlatformClient(o: TestPlatformClientOptions): KnowledgeTestProvider {
  const doFetch = o.fetch ?? fetch;
  const base = o.baseUrl.replace(/\/$/, '');
  async function call(
    method: 'GET' | 'POST',
    path: string,
    signal: AbortSignal,
    body?: TestInvitationRequest,
  ): Promise<TestInvitation> {
    let res: Response;
    try {
      res = await doFetch(`${base}${path}`, {
        method,
        signal,
        headers: {
          'x-api-key': o.apiKey,
          accept: 'application/json',
          ...(body
            ? { 'content-type': 'application/json', 'idempotency-key': body.reference }
            : {}),
        },
        ...(body ? { body: JSON.stringify(body) } : {}),
      });
    } catch {
      throw new ProviderError(
        signal.aborted ? 'The provider did not answer in time.' : 'The provider is unreachable.',
        true,
      );
    }
    if (!res.ok) {
      const retryable = res.status >= 500 || res.status === 429 || res.status === 408;
      throw new ProviderError(`The provider answered ${res.status}.`, retryable, res.status);
    }
    const parsed = testInvitationSchema.safeParse(await res.json().catch(() => null));
    if (!parsed.success) throw new ProviderError('The provider answered malformed data.', true);
    return parsed.data;
  }
  return {
    name: TEST_PLATFORM,
    invite: (request, signal) => call('POST', '/v1/invitations', signal, request),
    invitation: (id, signal) => call('GET', `/v1/invitations/${encodeURIComponent(id)}`, signal),
  };
}
