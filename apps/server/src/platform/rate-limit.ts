import { sql } from 'drizzle-orm';
import type { Database } from '../db/connection.js';
import type { Clock } from './clock.js';
import { RateLimitedError } from './errors.js';
import { SYSTEM_TX } from './service-context.js';

export interface RateLimitRule {
  key: string;
  /** Attempts allowed per window; Infinity counts the key without ever refusing on it alone. */
  max: number;
  /** The rule holds only while this other key has reached `atLeast` (an account under attack). */
  onlyIf?: { key: string; atLeast: number };
}

/**
 * Fixed-window attempt counters in the database, so every server process shares them. `hit`
 * first reads the keys of an attempt (per address, per account and address, ...): when any is
 * over its limit it throws 429 with Retry-After and writes nothing, so a blocked client cannot
 * grow the table. Otherwise it counts every key in one statement, and still answers 429 if a
 * concurrent attempt took the last place. Call it before any password hashing.
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
    const keys = [...new Set(rules.flatMap((r) => (r.onlyIf ? [r.key, r.onlyIf.key] : [r.key])))];
    const counted = [...new Set(rules.map((r) => r.key))];
    const keyList = (list: string[]) =>
      sql.join(
        list.map((k) => sql`${k}`),
        sql`, `,
      );
    const retryAfter = await this.db.transaction(SYSTEM_TX, async (tx) => {
      const current = await tx.execute<{ key: string; count: number; window_start: string }>(sql`
        select key, count, window_start from rate_limits
        where key in (${keyList(keys)}) and window_start > ${cutoff.toISOString()}::timestamptz`);
      const over = this.retryAfter(rules, current, now, 0);
      if (over > 0) return over;
      const values = sql.join(
        counted.map((k) => sql`(${k}, ${now.toISOString()}::timestamptz, 1)`),
        sql`, `,
      );
      const after = await tx.execute<{ key: string; count: number; window_start: string }>(sql`
        insert into rate_limits (key, window_start, count) values ${values}
        on conflict (key) do update set
          count = case when rate_limits.window_start <= ${cutoff.toISOString()}::timestamptz
                  then 1 else rate_limits.count + 1 end,
          window_start = case when rate_limits.window_start <= ${cutoff.toISOString()}::timestamptz
                  then excluded.window_start else rate_limits.window_start end
        returning key, count, window_start`);
      // What was read for the conditions, updated with what was just counted.
      const merged = new Map(current.map((r) => [r.key, r]));
      for (const r of after) merged.set(r.key, r);
      return this.retryAfter(rules, [...merged.values()], now, 1);
    });
    if (retryAfter > 0) throw new RateLimitedError(Math.max(1, retryAfter));
  }

  /**
   * Seconds until every rule that is over its limit frees up (0 = none). `slack` 0 asks "would
   * one more attempt be over?" (before counting), 1 asks "is the counted attempt over?".
   */
  private retryAfter(
    rules: RateLimitRule[],
    rows: { key: string; count: number; window_start: string }[],
    now: Date,
    slack: 0 | 1,
  ): number {
    const byKey = new Map(rows.map((r) => [r.key, r]));
    let wait = 0;
    for (const rule of rules) {
      const row = byKey.get(rule.key);
      if (!row || Number(row.count) + 1 - slack <= rule.max) continue;
      if (rule.onlyIf && Number(byKey.get(rule.onlyIf.key)?.count ?? 0) < rule.onlyIf.atLeast) {
        continue;
      }
      const ends = new Date(row.window_start).getTime() + this.windowMs;
      wait = Math.max(wait, Math.ceil((ends - now.getTime()) / 1000));
    }
    return wait;
  }

  /** Clears keys after a success (e.g. the account-and-address login counter). */
  async reset(keys: string[]): Promise<void> {
    if (keys.length === 0) return;
    await this.db.transaction(SYSTEM_TX, (tx) =>
      tx.execute(
        sql`delete from rate_limits where key in (${sql.join(
          keys.map((k) => sql`${k}`),
          sql`, `,
        )})`,
      ),
    );
  }
}
