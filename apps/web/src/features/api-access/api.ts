import type {
  ApiKeyCreate,
  ApiKeyCreatedOut,
  ApiKeyOut,
  WebhookDeliveryOut,
  WebhookEndpointCreatedOut,
  WebhookEndpointOut,
} from '@kestrel/domain';
import { useQuery } from '@tanstack/react-query';
import { type ApiResult, type Page, request } from '../../api/client';

export const API_KEYS_KEY = ['api-keys'] as const;
export const WEBHOOK_ENDPOINTS_KEY = ['webhook-endpoints'] as const;
export const deliveriesKey = (endpoint: number) => ['webhook-deliveries', endpoint] as const;

async function page<T>(path: string): Promise<T[]> {
  const r = await request<Page<T>>('GET', path);
  if (!r.ok) throw new Error(typeof r.data.detail === 'string' ? r.data.detail : 'failed');
  return r.data.results;
}

/** GET /api/api-keys/: the organisation's keys (never their secrets). */
export function useApiKeys() {
  return useQuery({ queryKey: API_KEYS_KEY, queryFn: () => page<ApiKeyOut>('/api/api-keys/') });
}

/** POST /api/api-keys/: the answer holds the secret, this once. */
export function createApiKey(body: ApiKeyCreate): Promise<ApiResult<ApiKeyCreatedOut>> {
  return request<ApiKeyCreatedOut>('POST', '/api/api-keys/', { body });
}

/** DELETE /api/api-keys/{id}/: revokes the key. */
export function revokeApiKey(id: number): Promise<ApiResult<unknown>> {
  return request<unknown>('DELETE', `/api/api-keys/${id}/`);
}

/** GET /api/webhook-endpoints/. */
export function useWebhookEndpoints() {
  return useQuery({
    queryKey: WEBHOOK_ENDPOINTS_KEY,
    queryFn: () => page<WebhookEndpointOut>('/api/webhook-endpoints/'),
  });
}

export interface EndpointBody {
  url: string;
  description: string;
  events: string[];
  is_enabled: boolean;
}

/** POST /api/webhook-endpoints/: the answer holds the signing secret, this once. */
export function createEndpoint(body: EndpointBody): Promise<ApiResult<WebhookEndpointCreatedOut>> {
  return request<WebhookEndpointCreatedOut>('POST', '/api/webhook-endpoints/', { body });
}

/** PATCH /api/webhook-endpoints/{id}/. */
export function updateEndpoint(
  id: number,
  body: Partial<EndpointBody>,
): Promise<ApiResult<WebhookEndpointOut>> {
  return request<WebhookEndpointOut>('PATCH', `/api/webhook-endpoints/${id}/`, { body });
}

/** DELETE /api/webhook-endpoints/{id}/. */
export function deleteEndpoint(id: number): Promise<ApiResult<unknown>> {
  return request<unknown>('DELETE', `/api/webhook-endpoints/${id}/`);
}

/** POST /api/webhook-endpoints/{id}/test/: a test event sent now, its outcome. */
export function testEndpoint(id: number): Promise<ApiResult<WebhookDeliveryOut>> {
  return request<WebhookDeliveryOut>('POST', `/api/webhook-endpoints/${id}/test/`, { body: {} });
}

/** GET /api/webhook-endpoints/{id}/deliveries/: the last 100. */
export function useDeliveries(endpoint: number) {
  return useQuery({
    queryKey: deliveriesKey(endpoint),
    queryFn: () => page<WebhookDeliveryOut>(`/api/webhook-endpoints/${endpoint}/deliveries/`),
  });
}

/** POST /api/webhook-deliveries/{id}/resend/. */
export function resendDelivery(id: number): Promise<ApiResult<WebhookDeliveryOut>> {
  return request<WebhookDeliveryOut>('POST', `/api/webhook-deliveries/${id}/resend/`, {
    body: {},
  });
}
