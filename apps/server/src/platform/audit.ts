import { sql } from 'drizzle-orm';
import type { Tx } from '../db/connection.js';
import type { VerbCode } from '../db/reference-data.js';
import type { Actor } from './context.js';
import { auditActions, securityRefusals } from './tables/audit.table.js';

export interface AuditEntry {
  verb: VerbCode;
  /** `app_label.model`, e.g. `cases.case`. */
  contentType?: string;
  objectId?: string | number | null;
  objectRepr?: string;
  changes?: Record<string, unknown>;
  /** Defaults to the actor's tenant. */
  customerId?: number | null;
}

/** Records an audit action inside the caller's transaction (so it commits with the change). */
export async function recordAudit(tx: Tx, actor: Actor, entry: AuditEntry): Promise<void> {
  await tx.insert(auditActions).values({
    customerId: entry.customerId === undefined ? actor.customerId : entry.customerId,
    actorType: actor.type,
    actorId: actor.id,
    actorName: actor.name.slice(0, 200),
    verb: entry.verb,
    contentType: entry.contentType ?? '',
    objectId:
      entry.objectId === undefined || entry.objectId === null ? null : String(entry.objectId),
    objectRepr: (entry.objectRepr ?? '').slice(0, 200),
    changes: entry.changes ?? {},
    ip: actor.ip,
    requestId: actor.requestId,
  });
}

/** The changed fields between two presented objects: `{field: [before, after]}`. */
export function diffChanges(
  before: Record<string, unknown>,
  after: Record<string, unknown>,
): Record<string, [unknown, unknown]> {
  const out: Record<string, [unknown, unknown]> = {};
  for (const key of new Set([...Object.keys(before), ...Object.keys(after)])) {
    if (JSON.stringify(before[key]) !== JSON.stringify(after[key])) {
      out[key] = [before[key] ?? null, after[key] ?? null];
    }
  }
  return out;
}

/** Refusals of one actor on one route are counted together over this window. */
export const REFUSAL_WINDOW_MS = 60 * 60_000;

/**
 * Counts a refused request in `security_refusals` (one row per actor, customer, route and
 * window: first and last time, count, and the last path, reason, address and request id),
 * apart from the activity trail. The actor's customer sees it; ops see all.
 */
export async function recordRefusal(
  tx: Tx,
  actor: Actor,
  refusal: { route: string; path: string; reason: string; at: Date },
): Promise<void> {
  const windowStart = new Date(
    Math.floor(refusal.at.getTime() / REFUSAL_WINDOW_MS) * REFUSAL_WINDOW_MS,
  );
  await tx
    .insert(securityRefusals)
    .values({
      customerId: actor.customerId,
      actorType: actor.type,
      actorId: actor.id,
      actorName: actor.name.slice(0, 200),
      route: refusal.route.slice(0, 200),
      path: refusal.path.slice(0, 200),
      reason: refusal.reason.slice(0, 200),
      windowStart,
      firstSeenAt: refusal.at,
      lastSeenAt: refusal.at,
      count: 1,
      ip: actor.ip?.slice(0, 64) ?? null,
      requestId: actor.requestId?.slice(0, 64) ?? null,
    })
    .onConflictDoUpdate({
      target: [
        securityRefusals.customerId,
        securityRefusals.actorType,
        securityRefusals.actorId,
        securityRefusals.route,
        securityRefusals.windowStart,
      ],
      set: {
        count: sql`${securityRefusals.count} + 1`,
        lastSeenAt: sql`excluded.last_seen_at`,
        path: sql`excluded.path`,
        reason: sql`excluded.reason`,
        ip: sql`excluded.ip`,
        requestId: sql`excluded.request_id`,
      },
    });
}
