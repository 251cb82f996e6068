import type {
  CasePaymentOut,
  CustomerPaymentDetailOut,
  CustomerPaymentOut,
  PaymentMethodOut,
  PaymentSettingsOut,
  PaymentSettingsUpdate,
  SetupIntentOut,
} from '@kestrel/domain';
import { type QueryClient, queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { cases } from '../../api/cases';
import { request } from '../../api/client';
import { ApiFailure, defineResource, resourceKeys } from '../../api/resource';
import { notify } from '../../lib/notify';

/** GET /api/payments/: the organisation's product and portal payments; {kind}-{id}/ one. */
export const customerPayments = defineResource<CustomerPaymentOut, CustomerPaymentDetailOut>(
  '/api/payments/',
  { item: 'payment', plural: 'payments' },
);

const METHODS = '/api/payment-methods/';
const SETTINGS = '/api/payment-settings/';
const methodKeys = resourceKeys(METHODS);
const settingsKeys = resourceKeys(SETTINGS);

/** The API's message for a refused request: its field's, its detail, or the default. */
export function refusalText(data: Readonly<Record<string, unknown>>, fallback: string): string {
  for (const v of Object.values(data)) {
    if (typeof v === 'string' && v) return v;
    if (Array.isArray(v) && typeof v[0] === 'string') return v[0];
  }
  return fallback;
}

async function unwrap<T>(
  r: { ok: true; data: T } | { ok: false; status: number; data: Record<string, unknown> },
  fallback: string,
): Promise<T> {
  if (r.ok) return r.data;
  throw new ApiFailure(r.status, r.data, refusalText(r.data, fallback));
}

/** GET /api/payment-methods/: the saved cards, the default first. */
export const paymentMethodsQuery = () =>
  queryOptions({
    queryKey: methodKeys.list(),
    queryFn: async () =>
      (
        await unwrap(
          await request<{ results: PaymentMethodOut[] }>('GET', METHODS),
          'Error getting list of payment methods',
        )
      ).results,
  });

/** GET /api/payment-settings/. */
export const paymentSettingsQuery = () =>
  queryOptions({
    queryKey: settingsKeys.list(),
    queryFn: async () =>
      unwrap(
        await request<PaymentSettingsOut>('GET', SETTINGS),
        'Error retrieving payment settings',
      ),
  });

/** PUT /api/payment-settings/ (the billing email); throws ApiFailure (400 to the form). */
export async function saveSettings(body: PaymentSettingsUpdate): Promise<PaymentSettingsOut> {
  return unwrap(
    await request<PaymentSettingsOut>('PUT', SETTINGS, { body }),
    'Error updating payment settings',
  );
}

/** POST /api/payment-methods/setup-intent/: the provider's setup intent the card is saved with. */
export async function startSetup(): Promise<SetupIntentOut> {
  return unwrap(
    await request<SetupIntentOut>('POST', `${METHODS}setup-intent/`, { body: {} }),
    'The payments service is not available. Try again in a few minutes.',
  );
}

/** The saved cards and the settings (the default card) read again: after a card is saved. */
export function cardsChanged(client: QueryClient): Promise<void> {
  return Promise.all([
    client.invalidateQueries({ queryKey: methodKeys.all }),
    client.invalidateQueries({ queryKey: settingsKeys.all }),
  ]).then(() => undefined);
}

/** POST /api/payment-methods/: records the card a confirmed setup intent saved. */
export async function recordMethod(setupIntent: string): Promise<PaymentMethodOut> {
  return unwrap(
    await request<PaymentMethodOut>('POST', METHODS, { body: { setup_intent: setupIntent } }),
    'Error adding payment method',
  );
}

/** Set a card as the default, or remove one; the cards and settings read again after. */
export function useMethodAction() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: async (v: { action: 'default' | 'remove'; method: PaymentMethodOut }) => {
      const r =
        v.action === 'default'
          ? await request('POST', `${METHODS}${v.method.id}/set-default/`, { body: {} })
          : await request('DELETE', `${METHODS}${v.method.id}/`);
      if (!r.ok) {
        throw new ApiFailure(
          r.status,
          r.data,
          refusalText(
            r.data,
            v.action === 'default'
              ? 'Error updating payment method'
              : 'Error deleting payment method',
          ),
        );
      }
      return v;
    },
    onSuccess: (v) => {
      notify.success(
        v.action === 'default'
          ? `${v.method.label} is now the default card`
          : `Removed ${v.method.label}`,
      );
    },
    onError: (e) => notify.error(e.message),
    onSettled: () => {
      void client.invalidateQueries({ queryKey: methodKeys.all });
      void client.invalidateQueries({ queryKey: settingsKeys.all });
    },
  });
}

/** POST /api/cases/{id}/retry-payment/: charge the case again; the case reads again after. */
export function useRetryPayment(caseId: number) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: async () =>
      unwrap(
        await request<CasePaymentOut>('POST', `/api/cases/${caseId}/retry-payment/`, { body: {} }),
        'The payment could not be retried.',
      ),
    onSuccess: (p) => {
      if (p.state === 'payment_needed') notify.error(p.reason ?? 'The payment was declined.');
      else notify.success(p.state === 'paid' ? `Paid ${p.amount_display}` : 'Payment in progress');
    },
    onError: (e) => notify.error(e.message),
    onSettled: () => {
      void client.invalidateQueries({ queryKey: cases.key });
      void client.invalidateQueries({ queryKey: customerPayments.key });
    },
  });
}
