import {
  type CaseDocumentOut,
  type CaseDocumentReject,
  DOCUMENT_MESSAGES,
  isActivityOpen,
  isCaseOpen,
} from '@kestrel/domain';
import { and, asc, eq } from 'drizzle-orm';
import type { Tx } from '../../db/connection.js';
import { recordAudit } from '../../platform/audit.js';
import { NotFoundError, PermissionDeniedError, ValidationError } from '../../platform/errors.js';
import type { ServiceContext } from '../../platform/service-context.js';
import { changeActivity } from '../activities/activities.service.js';
import { caseActivities } from '../activities/activities.table.js';
import { activityTypes } from '../bootstrap/bootstrap.table.js';
import { lockCase } from '../cases/cases.service.js';
import { reopenPortal } from '../portal/portal.service.js';
import { documentRepr, presentDocument } from './case-documents.presenter.js';
import { caseDocuments, DOCUMENT_CT } from './case-documents.table.js';

/** The activity kind whose subject is asked again when one of its documents is rejected. */
const COLLECTION = 'document-collection';

/**
 * The open document-collection activity a rejected document asks the subject again through: the
 * document's own when it belongs to one, else the case's first.
 */
async function openCollection(tx: Tx, caseId: number, own: number | null) {
  const rows = await tx
    .select({ id: caseActivities.id, state: caseActivities.state })
    .from(caseActivities)
    .innerJoin(activityTypes, eq(activityTypes.id, caseActivities.activityTypeId))
    .where(and(eq(caseActivities.caseId, caseId), eq(activityTypes.code, COLLECTION)))
    .orderBy(asc(caseActivities.position), asc(caseActivities.id));
  const open = rows.filter((r) => isActivityOpen(r.state));
  return open.find((r) => r.id === own) ?? open[0] ?? null;
}

/**
 * Rejects a document with a reason (operations, or customer staff who may change checks): it
 * leaves the result panels, the case's document collection goes back to the subject (unless it
 * already waits for them) and a submitted portal reopens, so the person replaces the document;
 * each change audited in the one transaction. 404 outside the reader's reach, 403 on a closed or
 * archived case, 400 when already rejected or when no open document collection can ask again.
 */
export async function rejectDocument(
  ctx: ServiceContext,
  id: number,
  input: CaseDocumentReject,
): Promise<CaseDocumentOut> {
  const { tx, actor } = ctx;
  const [found] = await tx
    .select({ caseId: caseDocuments.caseId })
    .from(caseDocuments)
    .where(eq(caseDocuments.id, id));
  if (!found) throw new NotFoundError();
  // the case first, then the document: the order every activity change locks in
  const c = await lockCase(tx, found.caseId);
  const [doc] = await tx.select().from(caseDocuments).where(eq(caseDocuments.id, id)).for('update');
  if (!doc) throw new NotFoundError();
  if (!isCaseOpen(c.state) || c.archivedAt) {
    throw new PermissionDeniedError(DOCUMENT_MESSAGES.closed, 'case closed');
  }
  if (doc.rejected) throw ValidationError.of('non_field_errors', DOCUMENT_MESSAGES.alreadyRejected);
  const collection = await openCollection(tx, c.id, doc.caseActivityId);
  if (!collection) throw ValidationError.of('non_field_errors', DOCUMENT_MESSAGES.noOpenCollection);
  const now = ctx.clock.now();
  const [updated] = await tx
    .update(caseDocuments)
    .set({
      rejected: true,
      rejectionReason: input.reason,
      rejectedAt: now,
      rejectedBy: actor.name.slice(0, 200),
      updatedAt: now,
    })
    .where(eq(caseDocuments.id, id))
    .returning();
  if (!updated) throw new NotFoundError();
  await recordAudit(tx, actor, {
    verb: 'rejected',
    contentType: DOCUMENT_CT,
    objectId: id,
    objectRepr: documentRepr(doc),
    customerId: doc.customerId,
    changes: { rejected: [false, true], reason: input.reason },
  });
  if (collection.state !== 'ca-awaiting-subject') {
    await changeActivity(tx, actor, collection.id, { state: 'ca-awaiting-subject' }, now);
    await reopenPortal(tx, actor, c.id, now);
  }
  return presentDocument(updated, actor.isOps ? 'ops' : 'staff');
}
