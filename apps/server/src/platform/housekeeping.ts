import { REFUSAL_RETENTION_DAYS } from '@kestrel/domain';
import { and, isNotNull, isNull, lt, or } from 'drizzle-orm';
import type { AppConfig } from '../config.js';
import { type ContextDeps, runAsSystem, type ServiceContext } from './service-context.js';
import { securityRefusals } from './tables/audit.table.js';
import { accountTokens, rateLimits, sessions } from './tables/sessions.table.js';

/**
 * Deletes what has expired, in the context's transaction: sessions past their idle or absolute
 * limit, rate-limit windows that have closed, used or expired account tokens, and counted
 * refusals last seen more than REFUSAL_RETENTION_DAYS ago. Safe to run from several processes;
 * run on a schedule by the housekeeping job (src/jobs/housekeeping.ts).
 */
export async function housekeep(
  { tx, clock }: Pick<ServiceContext, 'tx' | 'clock'>,
  config: Pick<AppConfig, 'sessionIdleMs' | 'sessionAbsoluteMs' | 'rateLimits'>,
): Promise<void> {
  const now = clock.now().getTime();
  const idle = new Date(now - config.sessionIdleMs);
  const absolute = new Date(now - config.sessionAbsoluteMs);
  const windowStart = new Date(now - config.rateLimits.windowMs);
  await tx
    .delete(sessions)
    .where(
      or(
        lt(sessions.lastSeenAt, idle),
        and(isNotNull(sessions.authenticatedAt), lt(sessions.authenticatedAt, absolute)),
        and(isNull(sessions.authenticatedAt), lt(sessions.createdAt, absolute)),
      ),
    );
  await tx.delete(rateLimits).where(lt(rateLimits.windowStart, windowStart));
  await tx
    .delete(accountTokens)
    .where(or(isNotNull(accountTokens.usedAt), lt(accountTokens.expiresAt, new Date(now))));
  const refusalsBefore = new Date(now - REFUSAL_RETENTION_DAYS * 24 * 60 * 60_000);
  await tx.delete(securityRefusals).where(lt(securityRefusals.lastSeenAt, refusalsBefore));
}

/** One housekeeping run as the system, outside the queue (tests, maintenance scripts). */
export function runHousekeeping(deps: ContextDeps & { config: AppConfig }): Promise<void> {
  return runAsSystem(deps, (ctx) => housekeep(ctx, deps.config));
}
