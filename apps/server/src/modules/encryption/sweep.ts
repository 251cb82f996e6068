/**
 * Every batch of a keys sweep in turn, from `first` until a batch names no next cursor; returns
 * each count summed over the batches (the document-keys and field-keys sweeps: tests, the
 * command line).
 */
export async function sweepAll<C, O extends { next: C | null }>(
  first: C,
  batch: (cursor: C) => Promise<O>,
): Promise<Omit<O, 'next'>> {
  let cursor: C | null = first;
  const total: Record<string, number> = {};
  while (cursor !== null) {
    const { next, ...counts }: O = await batch(cursor);
    for (const [k, v] of Object.entries(counts)) total[k] = (total[k] ?? 0) + Number(v);
    cursor = next;
  }
  return total as Omit<O, 'next'>;
}
