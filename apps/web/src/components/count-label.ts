/**
 * A list's total under it: "1 case", "12 cases", or "10,000+ cases" when the server counted only
 * up to its cap (`count_capped`, issue 28).
 */
export function countLabel(
  page: { count: number; count_capped?: true } | undefined,
  one: string,
  many: string,
): string {
  const count = page?.count ?? 0;
  if (page?.count_capped) return `${count.toLocaleString('en-GB')}+ ${many}`;
  return `${count} ${count === 1 ? one : many}`;
}

/** The pages to offer: past a capped count, one more (the server still gives the next page). */
export function pageCount(page: { count: number; count_capped?: true } | undefined, size: number) {
  const pages = Math.max(1, Math.ceil((page?.count ?? 0) / size));
  return page?.count_capped ? pages + 1 : pages;
}
