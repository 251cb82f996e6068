import type { Database, Tx, TxSettings } from '../db/connection.js';
import type { Clock } from './clock.js';
import { type Actor, systemActor } from './context.js';
import { PermissionDeniedError } from './errors.js';
import { enqueue, type JobRequest } from './jobs.js';

/**
 * What a service receives, whoever started the work (a route, a job, a provider callback): the
 * open transaction, who is acting, the clock, and the queue. No Fastify request: a route derives
 * the actor once (`actorOf(request)`) and passes what else a service needs explicitly.
 */
export interface ServiceContext {
  tx: Tx;
  actor: Actor;
  clock: Clock;
  /**
   * Enqueues a job in this transaction (`enqueue(tx, job)` of platform/jobs): an email, a
   * provider call; it runs once the transaction commits, and never if it rolls back.
   */
  enqueue: (job: JobRequest) => Promise<void>;
  /** Runs `fn` after the transaction commits (drop caches, tell other processes). */
  afterCommit: (fn: () => Promise<void> | void) => void;
}

/** What the runners need: the database and the clock (AppDeps has both). */
export interface ContextDeps {
  db: Pick<Database, 'transaction'>;
  clock: Clock;
}

export interface RunOptions {
  /**
   * Pure reads: BEGIN READ ONLY, and the answer does not wait for COMMIT (on PostgreSQL
   * read-only statements of concurrent requests are batched, see db/connection.ts).
   */
  readOnly?: boolean;
}

/**
 * The cross-tenant transaction of the system itself (sessions, login, rate limits, housekeeping,
 * mail, provider callbacks, jobs of no customer): the system role, never the ops role.
 */
export const SYSTEM_TX: TxSettings = { scope: 'system', customerId: null };

/**
 * A read of one customer's rows with nobody in particular acting (a hot count cached per
 * customer, see `Database.readCached`): the tenant scope with only the customer set.
 */
export function customerTx(customerId: number): TxSettings {
  return { scope: 'tenant', customerId };
}

/** The transaction settings of `actor` in its tenant: RLS limits rows to its customer. */
export function tenantTx(actor: Actor, opts: RunOptions = {}): TxSettings {
  return {
    scope: 'tenant',
    customerId: actor.customerId,
    subjectId: actor.type === 'SubjectUser' ? actor.id : null,
    userId: actor.id,
    readOnly: opts.readOnly === true,
  };
}

/**
 * The transaction settings of `actor` across every tenant as operations staff (the ops role,
 * holding only what the ops screens do; the access checks are the caller's).
 */
export function crossTenantTx(actor: Actor, opts: RunOptions = {}): TxSettings {
  return {
    scope: 'all',
    customerId: actor.customerId,
    userId: actor.id,
    readOnly: opts.readOnly === true,
  };
}

/** Runs `fn` with a context on `settings`, then what it left for after commit. */
async function run<T>(
  deps: ContextDeps,
  actor: Actor,
  settings: TxSettings,
  fn: (ctx: ServiceContext) => Promise<T>,
): Promise<T> {
  const later: (() => Promise<void> | void)[] = [];
  const result = await deps.db.transaction(settings, (tx) =>
    fn({
      tx,
      actor,
      clock: deps.clock,
      enqueue: async (job) => void (await enqueue(tx, job)),
      afterCommit: (f) => later.push(f),
    }),
  );
  for (const f of later) await f();
  return result;
}

/** Runs `fn` in one transaction scoped to `actor`'s customer (RLS does the filtering). */
export function runInTenant<T>(
  deps: ContextDeps,
  actor: Actor,
  fn: (ctx: ServiceContext) => Promise<T>,
  opts: RunOptions = {},
): Promise<T> {
  return run(deps, actor, tenantTx(actor, opts), fn);
}

/**
 * Runs `fn` in one transaction across every tenant: the explicit ops context. 403 for anyone but
 * ops staff.
 */
export function runInOps<T>(
  deps: ContextDeps,
  actor: Actor,
  fn: (ctx: ServiceContext) => Promise<T>,
  opts: RunOptions = {},
): Promise<T> {
  if (!actor.isOps) throw new PermissionDeniedError();
  return run(deps, actor, crossTenantTx(actor, opts), fn);
}

/**
 * Runs `fn` as the system (jobs, housekeeping, refusals, sessions): across every tenant, with
 * `actor` (the system actor unless given) for audit.
 */
export function runAsSystem<T>(
  deps: ContextDeps,
  fn: (ctx: ServiceContext) => Promise<T>,
  actor: Actor = systemActor,
): Promise<T> {
  return run(deps, actor, SYSTEM_TX, fn);
}

/** `{ readOnly: true }`: the options of a pure read. */
export const readOnly: RunOptions = { readOnly: true };
