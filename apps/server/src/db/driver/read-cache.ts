// The process-local cache of `readCached` answers, dropped by the writes that could change them.
import { settingsSql } from './settings.js';
import type { TxSettings } from './types.js';

const MAX_CACHED_READS = 10_000;

/**
 * The cache behind `readCached`. Every finished write bumps a generation (the customer's, or
 * all of them); an answer is reused only while both generations it was read under are unchanged,
 * so a write that ends while a read is in flight also invalidates that read.
 */
export class ReadCache {
  private all = 0;
  private readonly byCustomer = new Map<number, number>();
  private readonly entries = new Map<
    string,
    { rows: Record<string, unknown>[]; at: number; all: number; customer: number }
  >();

  /** A write transaction with these settings has finished (committed or not). */
  written(s: TxSettings | 'owner'): void {
    if (s === 'owner' || (s.scope !== 'tenant' && s.userId !== null && s.userId !== undefined)) {
      this.all += 1;
      this.byCustomer.clear();
      this.entries.clear();
    } else if (s.customerId !== null) {
      this.byCustomer.set(s.customerId, (this.byCustomer.get(s.customerId) ?? 0) + 1);
    }
  }

  async read(
    settings: TxSettings,
    sqlText: string,
    ttlMs: number,
    load: () => Promise<Record<string, unknown>[]>,
  ): Promise<Record<string, unknown>[]> {
    if (ttlMs <= 0) return load();
    const key = `${settingsSql(settings)}\n${sqlText}`;
    const cid = settings.customerId;
    const gen = () => (cid === null ? 0 : (this.byCustomer.get(cid) ?? 0));
    const hit = this.entries.get(key);
    if (
      hit &&
      performance.now() - hit.at <= ttlMs &&
      hit.all === this.all &&
      hit.customer === gen()
    ) {
      return hit.rows;
    }
    const before = { all: this.all, customer: gen(), at: performance.now() };
    const rows = await load();
    if (this.entries.size >= MAX_CACHED_READS) this.entries.clear();
    this.entries.set(key, { rows, ...before });
    return rows;
  }
}

/** Runs a transaction and tells the cache when a write one has finished. */
export function tracked<T>(cache: ReadCache, s: TxSettings, run: () => Promise<T>): Promise<T> {
  if (s.readOnly) return run();
  return run().finally(() => cache.written(s));
}
