import { sql } from 'drizzle-orm';
import type { Database } from '../db/connection.js';
import type { Clock } from './clock.js';
import { RateLimitedError } from './errors.js';

export interface RateLimitRule {
  key: string;
  max: number;
}

/**
 * Fixed-window attempt counters in the database, so every server process shares them. One
 * round trip counts all the keys of an attempt (per account and per address) and throws 429
 * with Retry-After when any is over its limit. Call it before any password hashing.
 */
export class RateLimiter {
  constructor(
    private readonly db: Database,
    private readonly clock: Clock,
    private readonly windowMs: number,
  ) {}

  async hit(rules: RateLimitRule[]): Promise<void> {
    if (rules.length === 0) return;
    const now = this.clock.now();
    const cutoff = new Date(now.getTime() - this.windowMs);
    const values = sql.join(
      rules.map((r) => sql`(${r.key}, ${now.toISOString()}::timestamptz, 1)`),
      sql`, `,
    );
    const rows = await this.db.transaction({ scope: 'all', customerId: null }, (tx) =>
      tx.execute<{ key: string; count: number; window_start: string }>(sql`
        insert into rate_limits (key, window_start, count) values ${values}
        on conflict (key) do update set
          count = case when rate_limits.window_start <= ${cutoff.toISOString()}::timestamptz
                  then 1 else rate_limits.count + 1 end,
          window_start = case when rate_limits.window_start <= ${cutoff.toISOString()}::timestamptz
                  then excluded.window_start else rate_limits.window_start end
        returning key, count, window_start`),
    );
    let retryAfter = 0;
    for (const row of rows) {
      const rule = rules.find((r) => r.key === row.key);
      if (rule && Number(row.count) > rule.max) {
        const ends = new Date(row.window_start).getTime() + this.windowMs;
        retryAfter = Math.max(retryAfter, Math.ceil((ends - now.getTime()) / 1000));
      }
    }
    if (retryAfter > 0) throw new RateLimitedError(Math.max(1, retryAfter));
  }

  /** Clears keys after a success (e.g. the account's login counter). */
  async reset(keys: string[]): Promise<void> {
    if (keys.length === 0) return;
    await this.db.transaction({ scope: 'all', customerId: null }, (tx) =>
      tx.execute(
        sql`delete from rate_limits where key in (${sql.join(
          keys.map((k) => sql`${k}`),
          sql`, `,
        )})`,
      ),
    );
  }
}
