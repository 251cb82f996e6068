import type { CheckProvider, EngineRunKind, ProcessingData } from '@kestrel/domain';
import type { FastifyInstance } from 'fastify';
import type { z } from 'zod';
import type { AppDeps } from '../../app-deps.js';
import type { Tx } from '../../db/connection.js';
import type { Clock } from '../../platform/clock.js';
import type { JobKind, JobRequest } from '../../platform/jobs.js';
import type { ServiceContext } from '../../platform/service-context.js';
import type { ActivityLock } from '../activities/activities.service.js';
import { keepRedacted } from './redacted.js';

/*
 * The contract between the check engine and a kind of check (ARCHITECTURE: modules/checks/
 * registry.ts + <kind>/). A kind's folder implements it (what its start sends, how it calls its
 * provider, how answers, polls and callbacks map to states and typed result data); a provider's
 * entry says how the engine makes its real client or its simulator and verifies its callbacks.
 * The engine (engine.ts, callbacks.ts) only ever goes through these: adding a kind touches the
 * registry and the kind's own files, nothing else.
 */

/** A provider's settings, read from the environment (README configuration table). */
export interface ProviderSettings {
  /** The real client's address and key; null: the deterministic simulator (the default). */
  real: { url: string; key: string } | null;
  /**
   * The HMAC secret of its signed callbacks: its variable, else this installation's random
   * simulator secret (server_secrets), which its simulator signs with.
   */
  callbackSecret: string;
}

/** What a provider's callbacks carry at least: an event id (replays) and the application. */
export interface ProviderCallback {
  event_id: string;
  reference: string;
}

export interface CheckProviderDefinition<P = unknown> {
  name: CheckProvider;
  /** The environment variables of its real client (`key` where it needs one). */
  env: { url: string; key?: string };
  /** The real client, for a configured provider. */
  client(settings: { url: string; key: string }): P;
  /**
   * The deterministic simulator, on the providers' clock (tests move it over simulated days);
   * its callbacks signed at the app's time with the callback secret; a simulated day lasts
   * `dayMs` of the providers' clock (ChecksConfig.simulatorDaySeconds).
   */
  simulator(o: { clock: Clock; signingClock: Clock; callbackSecret: string; dayMs: number }): P;
  /**
   * How many of its starts, and of its polls, may run at once in a server process (default 1):
   * more only for a client that keeps to the provider's rate itself (a rate limiter shared by its
   * calls), so that its calls wait for their places side by side, not one behind the other.
   */
  workers?: number;
  /** Its signed callbacks (webhooks). */
  callbacks?: {
    /** The body's schema. */
    schema: z.ZodType<ProviderCallback>;
    /**
     * The environment variable of its secret: required with the real client (its callbacks are
     * refused without it), else the installation's simulator secret (simulatorSecretName).
     */
    secretEnv: string;
    /** The header its signature comes in (lower case). */
    signatureHeader: string;
    /** True when `header` signs `raw` with `secret`, at a time close enough to `nowSeconds`. */
    verify(secret: string, header: string | undefined, raw: string, nowSeconds: number): boolean;
  };
}

/**
 * An activity locked with its case, with the engine's processing data (null: the engine has not
 * started it): what a kind's own routes lock (activity.ts lockProcessed) and write (saveActivity).
 */
export interface ProcessedActivity extends ActivityLock {
  processing: ProcessingData | null;
}

/** The activity row with its kind, locked with its case (engine.ts lockActivity). */
export interface LockedActivity extends ProcessedActivity {
  kind: EngineKind;
}

/** The engine's shared queues of starts and polls (providers without queues of their own). */
export const INITIATE_JOB = 'checks-initiate';
export const POLL_JOB = 'checks-poll';

/** Whether `provider` has start and poll queues of its own: it runs several calls at once. */
export const hasOwnQueues = (provider: Pick<CheckProviderDefinition, 'workers'>) =>
  (provider.workers ?? 1) > 1;

/**
 * The queue of `provider`'s starts: its own (`checks-initiate-<name>`) when its client keeps to
 * the provider's rate (`workers`), so that its starts waiting for their places never hold another
 * provider's behind them; else the shared one.
 */
export const initiateJobName = (provider: Pick<CheckProviderDefinition, 'name' | 'workers'>) =>
  hasOwnQueues(provider) ? `${INITIATE_JOB}-${provider.name}` : INITIATE_JOB;

/** The queue of `provider`'s polls, as its starts' (initiateJobName). */
export const pollJobName = (provider: Pick<CheckProviderDefinition, 'name' | 'workers'>) =>
  hasOwnQueues(provider) ? `${POLL_JOB}-${provider.name}` : POLL_JOB;

/**
 * What the engine gives a kind's own jobs and routes (the engine loads the registry, which loads
 * the kinds: a kind never imports the engine). checks/kind-engine.ts makes it.
 */
export interface KindEngine {
  /** Locks activity `id` with its case, with its kind; null when the engine does not run it. */
  lockActivity(tx: Tx, id: number): Promise<LockedActivity | null>;
  /** The engine's poll of `a` in `startAfterSeconds` (one pending poll per activity). */
  pollJob(a: LockedActivity, startAfterSeconds: number): JobRequest;
  /**
   * The app's client (or simulator) of `provider`, how often the engine polls its applications,
   * and the timeout of a call.
   */
  providerOf<P>(
    deps: AppDeps,
    provider: CheckProviderDefinition<P>,
  ): { client: P; pollSeconds: number; timeoutMs: number };
}

/** What every provider call carries: the activity's idempotency key and the timeout's signal. */
export interface ProviderCall {
  idempotencyKey: string;
  signal: AbortSignal;
}

/**
 * What a start waits for before its request goes to the provider (the customer's agent: for a
 * standard or enhanced check, the case's DBS details countersigned). `ready` is asked in the
 * transaction that starts it; the module that opens the gate calls the hook `gateOpened`.
 */
export interface StartGate {
  ready(tx: Tx, caseId: number): Promise<boolean>;
}

/** What a kind did with an answer or an update: whether its application is still tracked. */
export interface Applied {
  row: LockedActivity['row'];
  /** In progress with the provider: the engine polls it again. */
  tracking: boolean;
}

/** The engine's clients and simulators, by their registry entry. */
export type ProviderSource = <P>(provider: CheckProviderDefinition<P>) => P;

/** JSON-like data as kept in a provider log event. */
const asBody = (v: unknown): Record<string, unknown> =>
  v !== null && typeof v === 'object' && !Array.isArray(v)
    ? { ...(v as Record<string, unknown>) }
    : { value: v };

/**
 * One kind of check, as its folder defines it. P: its provider's client; R: what its start
 * sends; A: the provider's answer to it; U: an update of a started application (a poll's answer,
 * a callback without its event id). `defineKind` checks these fit together and makes the
 * engine's view of it (EngineKind), in which they are no longer seen.
 */
export interface CheckKind<P, R, A, U> {
  code: EngineRunKind;
  provider: CheckProviderDefinition<P>;
  /** What starts it: the subject's Review & Submit (portal). */
  trigger: 'submission';
  /** What its start waits for first, if anything ('ca-awaiting-agent' meanwhile). */
  gate?: StartGate;
  /** Its typed result_data (the domain's schema for the kind). */
  resultSchema: z.ZodType<Record<string, unknown>>;
  /**
   * What its start sends, from the case's data (in the job's transaction), or null when the
   * case lacks what it needs. `callbackUrl` is where the provider posts its callbacks.
   */
  request: (tx: Tx, a: LockedActivity, env: { callbackUrl: string }) => Promise<R | null>;
  /** The request as kept in the activity's provider log (personal data left out). */
  logged: (request: R) => Record<string, unknown>;
  /**
   * Sends it, outside any transaction, with the activity's idempotency key (the provider makes
   * one application however often it is sent) and the engine's timeout.
   */
  send: (provider: P, request: R, call: ProviderCall) => Promise<A>;
  /**
   * Applies the provider's answer to the started activity, whose request and answer `processing`
   * already logs; in the job's second transaction.
   */
  answered: (
    ctx: ServiceContext,
    a: LockedActivity,
    processing: ProcessingData,
    request: R,
    answer: A,
  ) => Promise<Applied>;
  /** A started application the provider works on over days: polled, and called back. */
  tracking?: {
    status: (provider: P, reference: string, call: ProviderCall) => Promise<U>;
    /** A callback's body (without its event id) as an update (the provider's schema). */
    update: z.ZodType<U>;
    /** Applies an update (a poll's answer, or a callback) logged in `processing`. */
    apply: (
      ctx: ServiceContext,
      a: LockedActivity,
      processing: ProcessingData,
      update: U,
    ) => Promise<Applied>;
  };
  /**
   * Jobs of the kind's own (the engine's start, poll and callback jobs serve every kind), given
   * the engine's parts they may use.
   */
  jobs?: (engine: KindEngine) => readonly JobKind<unknown, AppDeps>[];
  /**
   * Routes of the kind's own (an ops form's endpoint), registered by the checks module: a kind is
   * one folder and one registry line, no module of its own.
   */
  routes?: (app: FastifyInstance, engine: KindEngine) => Promise<void>;
  /**
   * What the subject may read of its result (spec point 2: the subject's view is a restricted
   * version of the customer's): the result data as stored in, the subject's view out (staff-only
   * fields, and anything outside the kind's schema, left out). Absent: the result as it is.
   */
  subjectView?: (resultData: unknown) => Record<string, unknown>;
}

/** What a provider said (an answer, a poll's update, a callback): its log body, and its effect. */
export interface ProviderSaid {
  body: Record<string, unknown>;
  /** In the transaction that logs it (`processing` logs it already). */
  apply: (ctx: ServiceContext, a: LockedActivity, processing: ProcessingData) => Promise<Applied>;
}

/** A start, prepared in the job's first transaction: what it logs, and its call. */
export interface PreparedStart {
  logged: Record<string, unknown>;
  send: (providers: ProviderSource, call: ProviderCall) => Promise<ProviderSaid>;
}

/** A kind as the engine holds it (defineKind): its payloads closed over, never passed around. */
export interface EngineKind {
  code: EngineRunKind;
  provider: CheckProviderDefinition<unknown>;
  trigger: 'submission';
  gate?: StartGate;
  resultSchema: z.ZodType<Record<string, unknown>>;
  prepare: (
    tx: Tx,
    a: LockedActivity,
    env: { callbackUrl: string },
  ) => Promise<PreparedStart | null>;
  tracking?: {
    poll: (
      providers: ProviderSource,
      reference: string,
      call: ProviderCall,
    ) => Promise<ProviderSaid>;
    /** A callback's body (its event id left out) as an update, or null when it is not one. */
    callback: (body: unknown) => ProviderSaid | null;
  };
  jobs?: (engine: KindEngine) => readonly JobKind<unknown, AppDeps>[];
  routes?: (app: FastifyInstance, engine: KindEngine) => Promise<void>;
  subjectView?: (resultData: unknown) => Record<string, unknown>;
}

/** The engine's view of a kind its folder defines (the compiler checks its parts fit). */
export function defineKind<P, R, A, U, C extends EngineRunKind>(
  k: CheckKind<P, R, A, U> & { code: C },
): EngineKind & { code: C } {
  return {
    code: k.code,
    provider: k.provider,
    trigger: k.trigger,
    ...(k.gate ? { gate: k.gate } : {}),
    resultSchema: k.resultSchema,
    ...(k.jobs ? { jobs: k.jobs } : {}),
    ...(k.routes ? { routes: k.routes } : {}),
    ...(k.subjectView ? { subjectView: k.subjectView } : {}),
    prepare: async (tx, a, env) => {
      const request = await k.request(tx, a, env);
      if (request === null) return null;
      return {
        logged: k.logged(request),
        send: async (providers, call) => {
          const answer = await k.send(providers(k.provider), request, call);
          return {
            body: asBody(answer),
            apply: async (ctx, a2, processing) =>
              (await keepRedacted(ctx, a2, processing)) ??
              k.answered(ctx, a2, processing, request, answer),
          };
        },
      };
    },
    ...(k.tracking ? { tracking: trackingOf(k.provider, k.tracking) } : {}),
  };
}

function trackingOf<P, U>(
  provider: CheckProviderDefinition<P>,
  t: NonNullable<CheckKind<P, unknown, unknown, U>['tracking']>,
): NonNullable<EngineKind['tracking']> {
  const said = (update: U): ProviderSaid => ({
    body: asBody(update),
    // an answer about a redacted activity is not stored (redacted.ts)
    apply: async (ctx, a, processing) =>
      (await keepRedacted(ctx, a, processing)) ?? t.apply(ctx, a, processing, update),
  });
  return {
    poll: async (providers, reference, call) =>
      said(await t.status(providers(provider), reference, call)),
    callback: (body) => {
      const parsed = t.update.safeParse(body);
      return parsed.success ? said(parsed.data) : null;
    },
  };
}
