// The documents feature's public face: what the case screens, the result panels and the subject
// portal use (other features import from here, never from the files behind it).
export { default as CaseDocumentsCard } from './case-documents-card';
export {
  byCollector,
  CaseDocumentsPanel,
  caseDocumentsKey,
  DocumentFacts,
  useCaseDocuments,
} from './case-documents-panel';
export {
  COLLECTORS,
  type Collector,
  type CollectorKey,
  collectorOf,
  collectorsForActivities,
  groupLabel,
} from './collectors';
export { DocumentViewer } from './document-viewer';
export {
  checkFile,
  DOCUMENT_ACCEPT,
  type DocumentAudience,
  deleteCaseDocument,
  type UploadResult,
  uploadDocument,
  uploadErrorText,
} from './documents-api';
