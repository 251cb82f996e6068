import type { PaymentProviderName } from '@kestrel/domain';
import type { Clock } from '../../platform/clock.js';
import type { ContextDeps } from '../../platform/service-context.js';
import { StripeClient } from '../../providers/payments/client.js';
import type { PaymentsProvider } from '../../providers/payments/provider.js';
import { PaymentsSimulator, SIMULATOR_WEBHOOK_SECRET } from '../../providers/payments/simulator.js';

/**
 * Payments configuration (README configuration table): PAYMENTS_PROVIDER (`simulator`, the
 * default, or `stripe`), STRIPE_SECRET_KEY, STRIPE_API_BASE, PAYMENTS_WEBHOOK_SECRET (the
 * simulator signs with its own default), PAYMENTS_TIMEOUT_MS.
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

export function readPaymentsConfig(env: NodeJS.ProcessEnv = process.env): PaymentsConfig {
  const provider: PaymentProviderName = env.PAYMENTS_PROVIDER === 'stripe' ? 'stripe' : 'simulator';
  const timeout = Number(env.PAYMENTS_TIMEOUT_MS);
  return {
    provider,
    stripeSecretKey: env.STRIPE_SECRET_KEY || null,
    stripeApiBase: env.STRIPE_API_BASE || 'https://api.stripe.com',
    webhookSecret: env.PAYMENTS_WEBHOOK_SECRET || SIMULATOR_WEBHOOK_SECRET,
    webhookSecretMissing: provider === 'stripe' && !env.PAYMENTS_WEBHOOK_SECRET,
    timeoutMs:
      env.PAYMENTS_TIMEOUT_MS && Number.isFinite(timeout) && timeout > 0 ? timeout : 10_000,
  };
}

export interface Payments {
  config: PaymentsConfig;
  provider: PaymentsProvider;
}

export function createPayments(
  deps: Pick<ContextDeps, 'clock'>,
  config = readPaymentsConfig(),
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
export function paymentsOf(deps: Pick<ContextDeps, 'clock'>): Payments {
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
