import type {
  SsoCallbackIn,
  SsoCallbackOut,
  SsoConfigIn,
  SsoConfigOut,
  SsoDiscoveryOut,
  SsoStartOut,
} from '@kestrel/domain';
import { useQuery } from '@tanstack/react-query';
import { type ApiResult, request } from '../../api/client';

export const SSO_CONFIG_PATH = '/api/sso-config/';
export const SSO_CONFIG_KEY = ['sso-config'] as const;

/** GET /api/sso-config/: the organisation's sign-in configuration (never its secret). */
export function useSsoConfig() {
  return useQuery({
    queryKey: SSO_CONFIG_KEY,
    queryFn: async () => {
      const r = await request<SsoConfigOut>('GET', SSO_CONFIG_PATH);
      if (!r.ok) throw new Error(typeof r.data.detail === 'string' ? r.data.detail : 'failed');
      return r.data;
    },
  });
}

/** PUT /api/sso-config/: the answer, refusals included. */
export function saveSsoConfig(body: SsoConfigIn): Promise<ApiResult<SsoConfigOut>> {
  return request<SsoConfigOut>('PUT', SSO_CONFIG_PATH, { body });
}

/** POST /api/sso-config/test-discovery/: fetches the issuer's discovery document. */
export function testDiscovery(issuer: string): Promise<ApiResult<SsoDiscoveryOut>> {
  return request<SsoDiscoveryOut>('POST', `${SSO_CONFIG_PATH}test-discovery/`, {
    body: { issuer },
  });
}

/** POST /api/accounts/sso/start/: the identity provider's address to go to. */
export function startSso(email: string, next?: string): Promise<ApiResult<SsoStartOut>> {
  return request<SsoStartOut>('POST', '/api/accounts/sso/start/', {
    body: next ? { email, next } : { email },
  });
}

/** POST /api/accounts/sso/callback/: the code and state the provider sent back. */
export function finishSso(body: SsoCallbackIn): Promise<ApiResult<SsoCallbackOut>> {
  return request<SsoCallbackOut>('POST', '/api/accounts/sso/callback/', { body });
}
