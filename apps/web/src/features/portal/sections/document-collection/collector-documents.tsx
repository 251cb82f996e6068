import type { CaseDocumentOut } from '@kestrel/domain';
import { useQueryClient } from '@tanstack/react-query';
import {
  COLLECTORS,
  type Collector,
  type CollectorKey,
  caseDocumentsKey,
  deleteCaseDocument,
  uploadDocument,
  useCaseDocuments,
} from '../../../documents';
import { CollectorSection } from './collector-section';

/** The subject's documents of a case (one shared query), and those of one collector. */
export function useSubjectDocuments(caseId: number) {
  const docs = useCaseDocuments('subject', caseId);
  // Read during render: React Query re-renders only for the properties read then, and `of` is
  // also called from a click handler (Continue), which would otherwise see stale documents.
  const list = docs.data ?? [];
  /** A collector's documents, the rejected ones too (the person replaces or removes them). */
  const all = (c: Collector) => list.filter((d) => (d.collector || 'identity') === c.key);
  /** A collector's accepted (not rejected) documents. */
  const of = (c: Collector) => all(c).filter((d) => !d.rejected);
  return { docs, of, all };
}

/**
 * One collector's documents for the subject, self-contained: the uploaded ones (viewer,
 * Replace, Add a page, Remove) and the form to add one (type, 'Please confirm' questions, camera
 * or files, progress). Used by the document-collection section; the rtw section can show the
 * right-to-work list with `<CollectorDocuments collector="right-to-work" ... />`.
 */
export function CollectorDocuments({
  caseId,
  collector: key,
  caseActivity = null,
  readOnly,
  error,
  onUploaded,
}: {
  caseId: number;
  collector: CollectorKey;
  /** The activity the new documents belong to (document-collection or rtw), when known. */
  caseActivity?: number | null;
  readOnly: boolean;
  error?: string | undefined;
  /** Called after a document is added. */
  onUploaded?: () => void;
}) {
  const collector = COLLECTORS[key];
  const { docs, all } = useSubjectDocuments(caseId);
  const client = useQueryClient();
  const reload = () => client.invalidateQueries({ queryKey: caseDocumentsKey('subject', caseId) });
  if (!docs.isSuccess) return null;
  return (
    <CollectorSection
      collector={collector}
      documents={all(collector)}
      readOnly={readOnly}
      error={error}
      onCreate={async (doc, onProgress) => {
        const res = await uploadDocument(
          'subject',
          {
            kind: 'create',
            fields: {
              case: caseId,
              case_activity: caseActivity,
              document_type: doc.type.code,
              collector: collector.key,
              confirmations: doc.confirmations,
            },
          },
          doc.files,
          onProgress,
        );
        if (res.ok) {
          onUploaded?.();
          await reload();
        }
        return res;
      }}
      onChangePages={async (d: CaseDocumentOut, mode, files, onProgress) => {
        const res = await uploadDocument(
          'subject',
          mode === 'replace' ? { kind: 'replace', id: d.id } : { kind: 'add-pages', id: d.id },
          files,
          onProgress,
        );
        if (res.ok) await reload();
        return res;
      }}
      onRemove={async (d) => {
        const res = await deleteCaseDocument('subject', d.id);
        if (res.ok) await reload();
        return res.ok;
      }}
    />
  );
}
