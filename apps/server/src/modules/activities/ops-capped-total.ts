// Operations' outstanding list (issue 29): a total that reached the cap, remembered briefly.

/** How long a total found at the cap is taken as still there (per process). */
export const CAPPED_TOTAL_MS = 2_000;
const MAX_ENTRIES = 1_000;

/**
 * The list's totals that reached OPS_COUNT_CAP ("1,000+"), by filter set, for CAPPED_TOTAL_MS.
 * Counting to the cap walked ~1,000 waiting activities with their types and cases: about 90% of
 * the list's PostgreSQL time (3.6 ms of 4 ms a request on a quiet machine), for an answer that
 * says only "more than 1,000". While such an answer is fresh the page is read without the count
 * and says "1,000+" again; a total under the cap is never remembered (it is exact, and counted on
 * every request), so a list of a few hundred, or a test's, always shows its exact count. At worst
 * a list that fell under the cap in the last two seconds still says "1,000+" for them; its page
 * (and `next`) is read fresh every time.
 */
export class CappedTotals {
  private readonly seen = new Map<string, number>();

  constructor(private readonly ttlMs = CAPPED_TOTAL_MS) {}

  /** The key of a list request: its filters (not its page, size or ordering) and its viewer. */
  static keyOf(query: unknown, viewerId: number | null): string {
    const entries =
      typeof query === 'object' && query !== null
        ? Object.entries(query).filter(([k]) => !IGNORED.has(k))
        : [];
    entries.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `${viewerId ?? ''}\n${JSON.stringify(entries)}`;
  }

  /** True while a total at the cap was found for `key` in the last ttlMs. */
  atCap(key: string, now = performance.now()): boolean {
    const at = this.seen.get(key);
    if (at === undefined) return false;
    if (now - at <= this.ttlMs) return true;
    this.seen.delete(key);
    return false;
  }

  /** Records what a count found: at the cap (remembered) or under it (forgotten). */
  found(key: string, reachedCap: boolean, now = performance.now()): void {
    if (!reachedCap) {
      this.seen.delete(key);
      return;
    }
    if (this.seen.size >= MAX_ENTRIES) this.seen.clear();
    this.seen.set(key, now);
  }
}

/** Query parameters that do not change which rows the list holds. */
const IGNORED = new Set(['page', 'page_size', 'ordering']);
