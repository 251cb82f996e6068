import type { AppDeps } from '../app-deps.js';
import { type Actor, systemActor } from '../platform/context.js';
import type { JobKind } from '../platform/jobs.js';
import {
  type ContextDeps,
  runAsSystem,
  runInTenant,
  type ServiceContext,
} from '../platform/service-context.js';

/**
 * A kind of job whose handler runs in a service context, as a route's service does: the
 * system's (runAsSystem) or, for a customer's job, that customer's tenant (runInTenant, RLS
 * limiting rows to it), the customer read from the payload by `customerOf`.
 */
export interface ServiceJobKind<T, D extends ContextDeps = AppDeps>
  extends Omit<JobKind<T, D>, 'handle'> {
  /** A customer's job: the customer its payload names. Left out: the job is the system's. */
  customerOf?(data: T): number;
  handle(data: T, ctx: ServiceContext, deps: D): Promise<void>;
}

/** Who acts in a job: the system, in the tenant of the customer when the job is a customer's. */
export function jobActor(customerId: number | null): Actor {
  return customerId === null ? systemActor : { ...systemActor, customerId };
}

/** The queue's kind for `kind`: each run opens the job's service context and commits it. */
export function serviceJob<T, D extends ContextDeps = AppDeps>(
  kind: ServiceJobKind<T, D>,
): JobKind<T, D> {
  const { customerOf, handle, ...rest } = kind;
  return {
    ...rest,
    handle: (data, deps) => {
      const run = (ctx: ServiceContext) => handle(data, ctx, deps);
      return customerOf
        ? runInTenant(deps, jobActor(customerOf(data)), run)
        : runAsSystem(deps, run, jobActor(null));
    },
  };
}
