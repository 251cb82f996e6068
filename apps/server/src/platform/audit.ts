import type { Tx } from '../db/connection.js';
import type { VerbCode } from '../db/reference-data.js';
import { auditActions } from '../modules/audit/audit.table.js';
import type { Actor } from './context.js';

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
