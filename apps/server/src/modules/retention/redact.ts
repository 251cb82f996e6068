import {
  ACTIVITY_KINDS,
  CRIMINAL_RECORD_CHECKS,
  DRIVING_CHECKS,
  isActivityKindCode,
  keptCriminalRecordResult,
  keptDrivingResult,
} from '@kestrel/domain';
import { and, eq, sql } from 'drizzle-orm';
import type { Tx } from '../../db/connection.js';
import { recordAudit } from '../../platform/audit.js';
import type { ServiceContext } from '../../platform/service-context.js';
import type { DocumentStorage } from '../../providers/storage/provider.js';
import { caseActivities } from '../activities/activities.table.js';
import { activityTypes } from '../bootstrap/bootstrap.table.js';
import {
  caseDocuments,
  DOCUMENT_CT,
  type StoredPage,
} from '../case-documents/case-documents.table.js';
import { cases } from '../cases/cases.table.js';
import { retentionRedactions } from './retention.table.js';

/*
 * Reusable redaction (issue 34): the retention job and a subject's erasure (modules/data-requests)
 * both use these. Stable signatures: `removeDocumentFiles`, `redactDocument`,
 * `redactActivityResult`, `isRedacted`. Each runs in the caller's tenant transaction (RLS: the
 * item must be the actor's customer's), records the redaction under a unique key per item and
 * reason, and audits it. A second call for the same item and reason does nothing and answers
 * null, so a job that runs twice (or two processes) redacts an item once.
 */

/** Why an item is redacted: a retention rule's code, or another reason's ('erasure'). */
export type RedactionReason = string;

/** The content type the audit names an activity by. */
const ACTIVITY_CT = 'cases.caseactivity';

export interface RedactionDone {
  id: number;
  caseId: number;
  removed: string[];
  redactedAt: Date;
}

/**
 * Removes a document's files from storage: each page's original and its thumbnail (a missing
 * object is not an error, so it may run again after a failure). Throws when the store fails, so
 * the caller's transaction rolls back and the item is tried again later.
 */
export async function removeDocumentFiles(
  storage: DocumentStorage,
  pages: readonly Pick<StoredPage, 'key' | 'thumbnailKey'>[],
): Promise<void> {
  for (const p of pages) {
    await storage.delete(p.key);
    await storage.delete(p.thumbnailKey);
  }
}

/**
 * How a redaction takes its item's row lock. `skip` (the hourly retention run): a row another
 * transaction holds is left for the next run (the call answers null). `wait` (an erasure): the
 * call waits for the other transaction, so a null answer means only "no such item" or "already
 * redacted for this reason", never "locked elsewhere", and the erasure is not recorded as carried
 * out with an item left.
 */
export type RedactionLock = 'skip' | 'wait';

/** The row lock's option for `lock` (drizzle writes 'skip locked' only when it is given). */
const skipLocked = (lock: RedactionLock) => (lock === 'skip' ? { skipLocked: true as const } : {});

/** Inserts the redaction record unless the item was redacted for this reason; its id, or null. */
async function claim(
  tx: Tx,
  item: {
    customerId: number;
    caseId: number;
    subjectId: number;
    target: 'document' | 'activity' | 'case';
    targetId: number;
    reason: RedactionReason;
    removed: string[];
    at: Date;
  },
): Promise<number | null> {
  const [row] = await tx
    .insert(retentionRedactions)
    .values({
      customerId: item.customerId,
      caseId: item.caseId,
      subjectId: item.subjectId,
      target: item.target,
      targetId: item.targetId,
      rule: item.reason,
      removed: item.removed,
      redactedAt: item.at,
    })
    .onConflictDoNothing()
    .returning({ id: retentionRedactions.id });
  return row?.id ?? null;
}

/**
 * Redacts a document: its files (every page and thumbnail) removed from storage, its pages'
 * list emptied in the database (type, dates and who uploaded it are kept), a redaction record
 * and an audit entry. The row is locked first (`lock` 'skip', the default: FOR UPDATE SKIP LOCKED,
 * a document another transaction holds is left for the next run; 'wait': FOR UPDATE, an
 * erasure's). Null when there is no such document, it is locked elsewhere (skip only), or it was
 * already redacted for `reason`.
 */
export async function redactDocument(
  ctx: ServiceContext,
  storage: DocumentStorage,
  documentId: number,
  reason: RedactionReason,
  lock: RedactionLock = 'skip',
): Promise<RedactionDone | null> {
  const { tx } = ctx;
  const [doc] = await tx
    .select({
      customerId: caseDocuments.customerId,
      caseId: caseDocuments.caseId,
      pages: caseDocuments.pages,
      documentType: caseDocuments.documentType,
      subjectId: cases.subjectId,
    })
    .from(caseDocuments)
    .innerJoin(
      cases,
      and(eq(cases.customerId, caseDocuments.customerId), eq(cases.id, caseDocuments.caseId)),
    )
    .where(eq(caseDocuments.id, documentId))
    .for('update', { of: caseDocuments, ...skipLocked(lock) });
  if (!doc) return null;
  const at = ctx.clock.now();
  const removed = doc.pages.flatMap((_page, i) => [`page ${i + 1}`, `page ${i + 1} thumbnail`]);
  const id = await claim(tx, {
    customerId: doc.customerId,
    caseId: doc.caseId,
    subjectId: doc.subjectId,
    target: 'document',
    targetId: documentId,
    reason,
    removed: removed.length > 0 ? removed : ['no files'],
    at,
  });
  if (id === null) return null;
  // the files first: a failure rolls the record back, and the keys are still there next time
  await removeDocumentFiles(storage, doc.pages);
  await tx
    .update(caseDocuments)
    .set({ pages: [], updatedAt: at })
    .where(and(eq(caseDocuments.customerId, doc.customerId), eq(caseDocuments.id, documentId)));
  await recordAudit(tx, ctx.actor, {
    verb: 'redacted',
    contentType: DOCUMENT_CT,
    objectId: documentId,
    objectRepr: `Document ${documentId} redacted (${reason})`,
    changes: { redacted: { reason, removed } },
    customerId: doc.customerId,
  });
  return { id, caseId: doc.caseId, removed, redactedAt: at };
}

/**
 * The result an activity keeps once redacted: a criminal-record check keeps its date, reference,
 * certificate number and outcome (its level is its kind, on the activity); a driving check its
 * outcome and dates; any other kind nothing.
 */
export function keptResult(kindCode: string, result: Record<string, unknown>) {
  if ((CRIMINAL_RECORD_CHECKS as readonly string[]).includes(kindCode)) {
    return keptCriminalRecordResult(result);
  }
  if ((DRIVING_CHECKS as readonly string[]).includes(kindCode)) return keptDrivingResult(result);
  return {};
}

/** The top-level fields of `before` that `after` lacks or changed: what was removed, in words. */
function removedFields(before: Record<string, unknown>, after: Record<string, unknown>): string[] {
  return Object.keys(before)
    .filter((k) => stable(before[k]) !== stable(after[k]))
    .sort();
}

/** JSON with objects' keys sorted (jsonb keeps its own key order). */
function stable(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(stable).join(',')}]`;
  if (typeof value === 'object' && value !== null) {
    const entries = Object.entries(value).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${stable(v)}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'undefined';
}

/** The provider log's events whose bodies are what was sent to or said by the provider. */
const PROVIDER_SAID = new Set(['request', 'answer', 'callback', 'poll']);

/**
 * The activity's provider log with what the provider was sent and said removed (each such
 * event's body replaced by `{redacted: reason}`; its time and type, and the engine's own errors,
 * retries and top-ups, kept), or null when there is nothing to remove: the answers hold the
 * result's content (a DVLA record, a disclosure) and must go with it.
 */
export function redactedLog(
  processing: unknown,
  reason: RedactionReason,
): Record<string, unknown> | null {
  if (typeof processing !== 'object' || processing === null || Array.isArray(processing)) {
    return null;
  }
  const p: Record<string, unknown> = { ...processing };
  if (!Array.isArray(p.events)) return null;
  let changed = false;
  const events = p.events.map((e: unknown) => {
    if (typeof e !== 'object' || e === null || Array.isArray(e)) return e;
    const ev: Record<string, unknown> = { ...e };
    const body = ev.body;
    const blank =
      typeof body === 'object' &&
      body !== null &&
      Object.keys(body).length === 1 &&
      'redacted' in body;
    if (typeof ev.type !== 'string' || !PROVIDER_SAID.has(ev.type) || blank) return e;
    changed = true;
    return { ...ev, body: { redacted: reason } };
  });
  return changed ? { ...p, events } : null;
}

/**
 * Redacts an activity's result content: `result_data` replaced by what must be kept
 * (`keptResult`), the provider log's requests and answers emptied (`redactedLog`), a redaction
 * record naming the fields removed, and an audit entry. Locked first (`lock`, as
 * `redactDocument`'s); null when there is none, it is locked elsewhere (skip only), or it was
 * already redacted for `reason`.
 */
export async function redactActivityResult(
  ctx: ServiceContext,
  activityId: number,
  reason: RedactionReason,
  lock: RedactionLock = 'skip',
): Promise<RedactionDone | null> {
  const { tx } = ctx;
  const [act] = await tx
    .select({
      customerId: caseActivities.customerId,
      caseId: caseActivities.caseId,
      resultData: caseActivities.resultData,
      processingData: caseActivities.processingData,
      kind: activityTypes.code,
      subjectId: cases.subjectId,
    })
    .from(caseActivities)
    .innerJoin(activityTypes, eq(activityTypes.id, caseActivities.activityTypeId))
    .innerJoin(
      cases,
      and(eq(cases.customerId, caseActivities.customerId), eq(cases.id, caseActivities.caseId)),
    )
    .where(eq(caseActivities.id, activityId))
    .for('update', { of: caseActivities, ...skipLocked(lock) });
  if (!act) return null;
  const at = ctx.clock.now();
  const kept = keptResult(act.kind, act.resultData);
  const log = redactedLog(act.processingData, reason);
  const removed = [...removedFields(act.resultData, kept), ...(log ? ['provider log'] : [])];
  const id = await claim(tx, {
    customerId: act.customerId,
    caseId: act.caseId,
    subjectId: act.subjectId,
    target: 'activity',
    targetId: activityId,
    reason,
    removed: removed.length > 0 ? removed : ['no content'],
    at,
  });
  if (id === null) return null;
  await tx
    .update(caseActivities)
    .set({ resultData: kept, ...(log ? { processingData: log } : {}), updatedAt: at })
    .where(and(eq(caseActivities.customerId, act.customerId), eq(caseActivities.id, activityId)));
  await recordAudit(tx, ctx.actor, {
    verb: 'redacted',
    contentType: ACTIVITY_CT,
    objectId: activityId,
    objectRepr: `${isActivityKindCode(act.kind) ? ACTIVITY_KINDS[act.kind].name : act.kind} result redacted (${reason})`,
    changes: { redacted: { reason, removed } },
    customerId: act.customerId,
  });
  return { id, caseId: act.caseId, removed, redactedAt: at };
}

/** Whether an item was redacted (for any reason): its earliest redaction's time, or null. */
export async function isRedacted(
  tx: Tx,
  target: 'document' | 'activity' | 'case',
  targetId: number,
): Promise<Date | null> {
  const [row] = await tx
    .select({
      at: sql<Date>`min(${retentionRedactions.redactedAt})`.mapWith(retentionRedactions.redactedAt),
    })
    .from(retentionRedactions)
    .where(and(eq(retentionRedactions.target, target), eq(retentionRedactions.targetId, targetId)));
  return row?.at ?? null;
}

/**
 * An activity's earliest redaction (any reason: a retention rule's, an erasure's): when and why,
 * or null. What the check engine asks before it stores a provider's answer (modules/checks
 * redacted.ts): an answer about a redacted activity is not stored.
 */
export async function activityRedaction(
  tx: Tx,
  activity: { customerId: number; id: number },
): Promise<{ reason: RedactionReason; at: Date } | null> {
  const [row] = await tx
    .select({ reason: retentionRedactions.rule, at: retentionRedactions.redactedAt })
    .from(retentionRedactions)
    .where(
      and(
        eq(retentionRedactions.customerId, activity.customerId),
        eq(retentionRedactions.target, 'activity'),
        eq(retentionRedactions.targetId, activity.id),
      ),
    )
    .orderBy(retentionRedactions.redactedAt, retentionRedactions.id)
    .limit(1);
  return row ?? null;
}

/** Records a case-level redaction (a purge) once; its id, or null when already recorded. */
export async function recordCaseRedaction(
  ctx: ServiceContext,
  c: { customerId: number; id: number; subjectId: number },
  reason: RedactionReason,
  removed: string[],
): Promise<number | null> {
  return claim(ctx.tx, {
    customerId: c.customerId,
    caseId: c.id,
    subjectId: c.subjectId,
    target: 'case',
    targetId: c.id,
    reason,
    removed,
    at: ctx.clock.now(),
  });
}
