import { type CaseDocumentOut, caseDocumentType, confirmationsProblem } from '@kestrel/domain';
import type { caseDocuments } from './case-documents.table.js';

type Audience = 'staff' | 'ops' | 'subject';

/** A document as its audit entries name it: its type and case. */
export function documentRepr(
  doc: Pick<typeof caseDocuments.$inferSelect, 'documentType' | 'caseId'>,
) {
  return `${caseDocumentType(doc.documentType)?.name ?? doc.documentType} (case ${doc.caseId})`;
}

/** The API prefix of each audience's document routes. */
export const DOCUMENT_PATHS: Record<Audience, string> = {
  staff: '/api/case-documents/',
  ops: '/api/ops/case-documents/',
  subject: '/api/s/case-documents/',
};

/**
 * A document as the API returns it: the spec's fields (document_type is the type's name), its
 * pages with their download and thumbnail paths under the audience's own prefix (a subject's
 * content_url is /api/s/case-documents/{id}/download/).
 */
export function presentDocument(
  doc: typeof caseDocuments.$inferSelect,
  audience: Audience,
): CaseDocumentOut {
  const base = `${DOCUMENT_PATHS[audience]}${doc.id}/`;
  const at = (path: string, page: number) => `${base}${path}/${page > 1 ? `?page=${page}` : ''}`;
  const pages = doc.pages.map((p, i) => ({
    page: i + 1,
    original_name: p.originalName,
    content_type: p.contentType,
    extension: p.extension,
    size: p.size,
    converted_from: p.convertedFrom,
    content_url: at('download', i + 1),
    thumbnail_url: at('thumbnail', i + 1),
    preview: p.preview ?? 'ready',
  }));
  return {
    id: doc.id,
    case: doc.caseId,
    case_activity: doc.caseActivityId,
    collector: doc.collector,
    document_type: caseDocumentType(doc.documentType)?.name ?? doc.documentType,
    document_type_code: doc.documentType,
    group: doc.group,
    route_index: doc.routeIndex,
    source: doc.source,
    extension: doc.pages[0]?.extension ?? '',
    content_url: at('download', 1),
    thumbnail_url: at('thumbnail', 1),
    rejected: doc.rejected,
    rejection_reason: doc.rejectionReason,
    rejected_at: doc.rejectedAt ? doc.rejectedAt.toISOString() : null,
    // who rejected it is for staff; the person reads only why
    rejected_by: audience === 'subject' ? '' : doc.rejectedBy,
    confirmations: doc.confirmations,
    confirmed: confirmationsProblem(doc.documentType, doc.confirmations) === null,
    pages,
    uploaded_by: doc.uploadedByType,
    created_at: doc.createdAt.toISOString(),
    updated_at: doc.updatedAt.toISOString(),
  };
}
