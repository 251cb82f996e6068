import type { FastifyInstance } from 'fastify';
import type { Tx } from '../db/connection.js';
import type { DocumentStorage } from '../providers/storage/provider.js';
import type { Clock } from './clock.js';
import type { ServiceContext } from './service-context.js';

/** Data the demo seed made before modules run their own demo seeds. */
export interface DemoSeedContext {
  tx: Tx;
  clock: Clock;
  customers: { acme: number; northgate: number };
  users: Record<string, { id: number; customerId: number | null }>;
  subjects: Record<string, { id: number; customerId: number }>;
  /** Where the demo's documents' files go: the store the server then reads them from. */
  storage: DocumentStorage;
}

/**
 * A module folder's entry point: `src/modules/<name>/module.ts` with a default export of this
 * shape. buildApp finds every such file, so adding a module needs no edit elsewhere.
 */
/** A payment intent paid for something other than a case activity's top-up (its purpose's id). */
export interface PurposeIntent {
  customerId: number;
  id: number;
  publicId: string;
  purposeId: number | null;
  amountPence: number;
}

/**
 * What a module's payments are for (a self-initiated registration, a licence application's fee):
 * the payments webhook settles the intent, then calls `settle` in the same transaction, once, with
 * the outcome (paid or declined).
 */
export interface PaymentPurpose {
  settle(
    ctx: ServiceContext,
    intent: PurposeIntent,
    outcome: 'paid' | 'declined',
    deps: { config: { publicUrl: string } },
  ): Promise<void>;
}

export interface KestrelModule {
  name: string;
  /** Registers the module's routes (use registerResource and route `config.access`). */
  routes?: (app: FastifyInstance) => Promise<void>;
  /** `app_label.model` names for the content-types table (registerResource adds its own). */
  contentTypes?: readonly string[];
  /** Adds the module's demo data on first start (runs as the owner, after the core seed). */
  seedDemo?: (ctx: DemoSeedContext) => Promise<void>;
  /** Order among modules' demo seeds (lower first; default 100). */
  seedOrder?: number;
  /**
   * Names of the installation secrets it needs (e.g. a simulator's callback secret): made at
   * random once and kept in `server_secrets`, read at start (`AppDeps.secrets`).
   */
  secrets?: readonly string[];
  /** Payment intents' purposes this module owns, by name (payments.table.ts `purpose`). */
  paymentPurposes?: Readonly<Record<string, PaymentPurpose>>;
}
