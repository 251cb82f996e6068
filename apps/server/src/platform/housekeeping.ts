import { and, isNotNull, isNull, lt, or } from 'drizzle-orm';
import type { AppDeps } from '../app-deps.js';
import { runAsSystem } from './service-context.js';
import { accountTokens, rateLimits, sessions } from './tables/sessions.table.js';

/**
 * Deletes what has expired: sessions past their idle or absolute limit, rate-limit windows
 * that have closed, and used or expired account tokens. Safe to run from several processes;
 * run on a schedule by the housekeeping job (src/jobs/housekeeping.ts).
 */
export async function runHousekeeping(deps: AppDeps): Promise<void> {
  const now = deps.clock.now().getTime();
  const idle = new Date(now - deps.config.sessionIdleMs);
  const absolute = new Date(now - deps.config.sessionAbsoluteMs);
  const windowStart = new Date(now - deps.config.rateLimits.windowMs);
  await runAsSystem(deps, async ({ tx }) => {
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
  });
}
