import {
  type CaseDocumentCreate,
  type CaseDocumentOut,
  type CaseDocumentReplace,
  caseDocumentType,
  confirmationsProblem,
  DOCUMENT_MESSAGES,
  isCaseOpen,
  isCaseSubmitted,
} from '@kestrel/domain';
import { and, asc, eq, sql } from 'drizzle-orm';
import type { Tx } from '../../db/connection.js';
import { recordAudit } from '../../platform/audit.js';
import type { Actor } from '../../platform/context.js';
import { NotFoundError, PermissionDeniedError, ValidationError } from '../../platform/errors.js';
import type { ServiceContext } from '../../platform/service-context.js';
import { caseActivities } from '../activities/activities.table.js';
import type { CaseDataAudience } from '../case-data/case-access.js';
import { cases } from '../cases/cases.table.js';
import { documentRepr, presentDocument } from './case-documents.presenter.js';
import { caseDocuments, DOCUMENT_CT, type StoredPage } from './case-documents.table.js';
import { thumbnailsJob } from './thumbnail-job.js';

/**
 * Who is asking: customer staff (/api/, tenant by RLS), operations (/api/ops/, every customer)
 * or the subject (/api/s/, its own cases by RLS).
 */
export type DocumentAudience = CaseDataAudience;

interface CaseRef {
  id: number;
  customerId: number;
  state: string;
  portalLastCompletedSection: string | null;
  archived: boolean;
}

async function findCase(tx: Tx, id: number): Promise<CaseRef | null> {
  const [c] = await tx
    .select({
      id: cases.id,
      customerId: cases.customerId,
      state: cases.state,
      portalLastCompletedSection: cases.portalLastCompletedSection,
      archived: sql<boolean>`${cases.archivedAt} is not null`,
    })
    .from(cases)
    .where(eq(cases.id, id));
  return c ?? null;
}

/**
 * The case if this audience may read it (or change its documents); 404 otherwise. RLS already
 * hides other tenants' cases and, from a subject, other subjects'. A subject sees its open cases
 * only and may not change documents once the case is submitted (403); nobody changes the
 * documents of a closed or archived case (403).
 */
function allowCase(c: CaseRef | null, audience: DocumentAudience, intent: 'read' | 'write') {
  if (!c) throw new NotFoundError();
  if (audience === 'subject' && (!isCaseOpen(c.state) || c.archived)) throw new NotFoundError();
  if (intent === 'write') {
    if (!isCaseOpen(c.state) || c.archived) {
      throw new PermissionDeniedError(DOCUMENT_MESSAGES.closed, 'case closed');
    }
    if (audience === 'subject' && isCaseSubmitted(c)) {
      throw new PermissionDeniedError(DOCUMENT_MESSAGES.submitted, 'case submitted');
    }
  }
  return c;
}

/** Where a new page of a case goes: its customer and case. */
export interface UploadTarget {
  customerId: number;
  caseId: number;
}

/** 404 unless the case exists for this audience; 403 when its documents may not change. */
export async function checkCaseForUpload(
  ctx: ServiceContext,
  audience: DocumentAudience,
  caseId: number,
): Promise<UploadTarget> {
  const c = allowCase(await findCase(ctx.tx, caseId), audience, 'write');
  return { customerId: c.customerId, caseId: c.id };
}

/** As checkCaseForUpload, for new pages of an existing document. */
export async function checkDocumentForUpload(
  ctx: ServiceContext,
  audience: DocumentAudience,
  id: number,
): Promise<UploadTarget> {
  const { case: c } = await loadDocument(ctx.tx, audience, id, 'write');
  return { customerId: c.customerId, caseId: c.id };
}

async function checkActivity(tx: Tx, caseId: number, activityId: number | undefined) {
  if (activityId === undefined) return;
  const [a] = await tx
    .select({ id: caseActivities.id })
    .from(caseActivities)
    .where(and(eq(caseActivities.id, activityId), eq(caseActivities.caseId, caseId)));
  if (!a) throw ValidationError.of('case_activity', DOCUMENT_MESSAGES.activityNotInCase);
}

type DocumentRow = typeof caseDocuments.$inferSelect;

/** The document and its case for this audience (404 when either is out of its reach). */
async function loadDocument(
  tx: Tx,
  audience: DocumentAudience,
  id: number,
  intent: 'read' | 'write',
  lock = false,
): Promise<{ doc: DocumentRow; case: CaseRef }> {
  const q = tx.select().from(caseDocuments).where(eq(caseDocuments.id, id));
  const [doc] = lock ? await q.for('update') : await q;
  if (!doc) throw new NotFoundError();
  const c = allowCase(await findCase(tx, doc.caseId), audience, intent);
  // a subject changes what it uploaded, not what the identity service provider supplied
  if (intent === 'write' && audience === 'subject' && doc.source !== 'manual') {
    throw new PermissionDeniedError(undefined, 'document source');
  }
  return { doc, case: c };
}

function uploader(actor: Actor) {
  return {
    uploadedByType: actor.type ?? 'System',
    uploadedById: actor.id,
  };
}

function typeFields(code: string) {
  const type = caseDocumentType(code);
  return { documentType: code, group: type?.group ?? '' };
}

/** 400 on `confirmations` unless every eligibility question of the type is confirmed. */
function checkConfirmations(typeCode: string, ids: readonly string[]): string[] {
  const problem = confirmationsProblem(typeCode, ids);
  if (problem) throw ValidationError.of('confirmations', problem);
  return [...ids];
}

const pageSummary = (pages: StoredPage[]) =>
  pages.map((p) => ({ name: p.originalName, type: p.contentType, size: p.size }));

/** Records a new document with its stored pages, audited in the same transaction. */
export async function createDocument(
  ctx: ServiceContext,
  audience: DocumentAudience,
  input: CaseDocumentCreate,
  pages: StoredPage[],
): Promise<CaseDocumentOut> {
  const c = allowCase(await findCase(ctx.tx, input.case), audience, 'write');
  await checkActivity(ctx.tx, c.id, input.case_activity);
  const confirmations =
    input.confirmations === undefined
      ? []
      : checkConfirmations(input.document_type, input.confirmations);
  const now = ctx.clock.now();
  const [doc] = await ctx.tx
    .insert(caseDocuments)
    .values({
      customerId: c.customerId,
      caseId: c.id,
      caseActivityId: input.case_activity ?? null,
      collector: input.collector ?? '',
      ...typeFields(input.document_type),
      routeIndex: input.route_index ?? null,
      source: 'manual',
      confirmations,
      pages,
      ...uploader(ctx.actor),
      createdAt: now,
      updatedAt: now,
    })
    .returning();
  if (!doc) throw new Error('case document insert returned nothing');
  await ctx.enqueue(thumbnailsJob(c.customerId, doc.id));
  await recordAudit(ctx.tx, ctx.actor, {
    verb: 'created',
    contentType: DOCUMENT_CT,
    objectId: doc.id,
    objectRepr: documentRepr(doc),
    customerId: c.customerId,
    changes: {
      document_type: doc.documentType,
      pages: pageSummary(pages),
      ...(confirmations.length > 0 ? { confirmations } : {}),
    },
  });
  return presentDocument(doc, audience);
}

/**
 * Replaces a document's pages (and the fields sent) until the case is submitted; `add` keeps the
 * old pages and appends. Returns the document and the pages no longer used (to delete after commit).
 */
export async function changeDocumentPages(
  ctx: ServiceContext,
  audience: DocumentAudience,
  id: number,
  input: CaseDocumentReplace,
  pages: StoredPage[],
  mode: 'replace' | 'add',
  maxPages: number,
): Promise<{ out: CaseDocumentOut; dropped: StoredPage[] }> {
  const { doc } = await loadDocument(ctx.tx, audience, id, 'write', true);
  const next = mode === 'add' ? [...doc.pages, ...pages] : pages;
  if (next.length > maxPages) {
    throw ValidationError.of('file', DOCUMENT_MESSAGES.tooManyPages(maxPages));
  }
  // new answers are checked against the (new) type; a new type without answers has none yet
  const typeCode = input.document_type ?? doc.documentType;
  const confirmations =
    input.confirmations !== undefined
      ? checkConfirmations(typeCode, input.confirmations)
      : typeCode !== doc.documentType
        ? []
        : doc.confirmations;
  const [updated] = await ctx.tx
    .update(caseDocuments)
    .set({
      pages: next,
      ...(input.document_type ? typeFields(input.document_type) : {}),
      ...(input.collector !== undefined ? { collector: input.collector } : {}),
      ...(input.route_index !== undefined ? { routeIndex: input.route_index } : {}),
      confirmations,
      // new pages answer a rejection: the document is up for review again
      rejected: false,
      rejectionReason: '',
      rejectedAt: null,
      rejectedBy: '',
      ...uploader(ctx.actor),
      updatedAt: ctx.clock.now(),
    })
    .where(eq(caseDocuments.id, id))
    .returning();
  if (!updated) throw new NotFoundError();
  if (pages.length > 0) await ctx.enqueue(thumbnailsJob(doc.customerId, id));
  await recordAudit(ctx.tx, ctx.actor, {
    verb: 'updated',
    contentType: DOCUMENT_CT,
    objectId: id,
    objectRepr: documentRepr(updated),
    customerId: doc.customerId,
    changes: {
      pages: [pageSummary(doc.pages), pageSummary(next)],
      ...(updated.documentType !== doc.documentType
        ? { document_type: [doc.documentType, updated.documentType] }
        : {}),
      ...(input.confirmations !== undefined
        ? { confirmations: [doc.confirmations, confirmations] }
        : {}),
      ...(doc.rejected ? { rejected: [true, false] } : {}),
    },
  });
  return { out: presentDocument(updated, audience), dropped: mode === 'add' ? [] : doc.pages };
}

/** Deletes a document (audited); returns its pages for the caller to remove after commit. */
export async function deleteDocument(
  ctx: ServiceContext,
  audience: DocumentAudience,
  id: number,
): Promise<StoredPage[]> {
  const { doc } = await loadDocument(ctx.tx, audience, id, 'write', true);
  await ctx.tx.delete(caseDocuments).where(eq(caseDocuments.id, id));
  await recordAudit(ctx.tx, ctx.actor, {
    verb: 'deleted',
    contentType: DOCUMENT_CT,
    objectId: id,
    objectRepr: documentRepr(doc),
    customerId: doc.customerId,
    changes: { pages: pageSummary(doc.pages) },
  });
  return doc.pages;
}

/** One document as this audience sees it. */
export async function retrieveDocument(
  ctx: ServiceContext,
  audience: DocumentAudience,
  id: number,
): Promise<CaseDocumentOut> {
  const { doc } = await loadDocument(ctx.tx, audience, id, 'read');
  return presentDocument(doc, audience);
}

/** The stored page `page` (1-based) of a document, for a download or its thumbnail. */
export async function documentPage(
  ctx: ServiceContext,
  audience: DocumentAudience,
  id: number,
  page: number,
): Promise<StoredPage> {
  const { doc } = await loadDocument(ctx.tx, audience, id, 'read');
  const found = doc.pages[page - 1];
  if (!found) throw new NotFoundError(DOCUMENT_MESSAGES.noSuchPage);
  return found;
}

/** A case's documents (optionally one activity's), oldest first, one page of them. */
export async function listDocuments(
  ctx: ServiceContext,
  audience: DocumentAudience,
  filter: { case: number; case_activity?: number | undefined },
  page: { offset: number; pageSize: number },
): Promise<{ count: number; results: CaseDocumentOut[] }> {
  allowCase(await findCase(ctx.tx, filter.case), audience, 'read');
  const where = and(
    eq(caseDocuments.caseId, filter.case),
    filter.case_activity === undefined
      ? undefined
      : eq(caseDocuments.caseActivityId, filter.case_activity),
  );
  const rows = await ctx.tx
    .select({ doc: caseDocuments, total: sql<number>`count(*) over ()`.mapWith(Number) })
    .from(caseDocuments)
    .where(where)
    .orderBy(asc(caseDocuments.createdAt), asc(caseDocuments.id))
    .limit(page.pageSize)
    .offset(page.offset);
  let count = rows[0]?.total ?? 0;
  if (rows.length === 0 && page.offset > 0) {
    const [c] = await ctx.tx
      .select({ n: sql<number>`count(*)`.mapWith(Number) })
      .from(caseDocuments)
      .where(where);
    count = c?.n ?? 0;
  }
  return { count, results: rows.map((r) => presentDocument(r.doc, audience)) };
}
