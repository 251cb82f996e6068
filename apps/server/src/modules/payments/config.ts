import type { PaymentProviderName } from '@kestrel/domain';
import type { Clock } from '../../platform/clock.js';
import type { SecretSource } from '../../platform/server-secrets.js';
import type { ContextDeps } from '../../platform/service-context.js';
import { StripeClient } from '../../providers/payments/client.js';
import type { PaymentsProvider } from '../../providers/payments/provider.js';
import { PaymentsSimulator } from '../../providers/payments/simulator.js';

/**
 * The installation secret (server_secrets) the payments simulator signs its webhooks with, and
 * they are verified with, when PAYMENTS_WEBHOOK_SECRET is not set: random per installation.
 */
export const PAYMENTS_SIMULATOR_SECRET = 'simulator:payments';

/**
 * Payments configuration (README configuration table): PAYMENTS_PROVIDER (`simulator`, the
 * default, or `stripe`), STRIPE_SECRET_KEY, STRIPE_API_BASE, PAYMENTS_WEBHOOK_SECRET (else the
 * installation's simulator secret), PAYMENTS_TIMEOUT_MS.
 */
export interface PaymentsConfig {
  provider: PaymentProviderName;
  stripeSecretKey: string | null;
  stripeApiBase: string;
  webhookSecret: string;
  /** True when Stripe is configured without its webhook secret: every webhook is refused. */
  webhookSecretMissing: boolean;
  timeoutMs: number;
}

/** The payments provider the environment names (PAYMENTS_PROVIDER). */
export function paymentProviderName(env: NodeJS.ProcessEnv = process.env): PaymentProviderName {
  return env.PAYMENTS_PROVIDER === 'stripe' ? 'stripe' : 'simulator';
}

export function readPaymentsConfig(env: NodeJS.ProcessEnv, secrets: SecretSource): PaymentsConfig {
  const provider = paymentProviderName(env);
  const timeout = Number(env.PAYMENTS_TIMEOUT_MS);
  return {
    provider,
    stripeSecretKey: env.STRIPE_SECRET_KEY || null,
    stripeApiBase: env.STRIPE_API_BASE || 'https://api.stripe.com',
    webhookSecret: env.PAYMENTS_WEBHOOK_SECRET || secrets.get(PAYMENTS_SIMULATOR_SECRET),
    webhookSecretMissing: provider === 'stripe' && !env.PAYMENTS_WEBHOOK_SECRET,
    timeoutMs:
      env.PAYMENTS_TIMEOUT_MS && Number.isFinite(timeout) && timeout > 0 ? timeout : 10_000,
  };
}

export interface Payments {
  config: PaymentsConfig;
  provider: PaymentsProvider;
}

/** What payments need of the app: its clock and its installation's secrets. */
export type PaymentsDeps = Pick<ContextDeps, 'clock'> & { secrets: SecretSource };

export function createPayments(
  deps: PaymentsDeps,
  config = readPaymentsConfig(process.env, deps.secrets),
  clock: Clock = deps.clock,
): Payments {
  const provider: PaymentsProvider =
    config.provider === 'stripe'
      ? new StripeClient({ secretKey: config.stripeSecretKey ?? '', apiBase: config.stripeApiBase })
      : new PaymentsSimulator({ clock, webhookSecret: config.webhookSecret });
  return { config, provider };
}

const all = new WeakMap<object, Payments>();

/** The payments of the app whose deps these are (made on first use). */
export function paymentsOf(deps: PaymentsDeps): Payments {
  let p = all.get(deps);
  if (!p) {
    p = createPayments(deps);
    all.set(deps, p);
  }
  return p;
}

/** Replaces an app's payments (tests: another configuration or provider). */
export function usePayments(deps: Pick<ContextDeps, 'clock'>, payments: Payments): void {
  all.set(deps, payments);
}
