// The planner's statistics on the embedded database.
import type { Database } from './driver/types.js';

/**
 * Refreshes the planner's statistics (ANALYZE) on PGlite, which runs no autovacuum: without it a
 * table the demo seed or an import filled still looks empty to the planner, whose plans then walk
 * whole tables (a 1,000-row import's duplicate lookups). On PostgreSQL autovacuum does this, so
 * it does nothing there. `tables` narrows it to those (names of this schema's tables).
 */
export async function refreshStatistics(
  db: Database,
  tables: readonly string[] = [],
): Promise<void> {
  if (db.kind !== 'pglite') return;
  const names = tables.filter((t) => /^[a-z_][a-z0-9_]*$/.test(t));
  await db.ownerExec(names.length > 0 ? `ANALYZE ${names.join(', ')}` : 'ANALYZE');
}
