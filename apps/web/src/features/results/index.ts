// The results feature's public face: an activity's result (staff and subject), the result
// panels' registry and the document collection panel (other features import from here).
export {
  ActivityResult,
  type ActivityResultProps,
  SubjectActivityResult,
  type SubjectActivityResultProps,
} from './activity-result';
export { DocumentCollectionPanel } from './document-collection-panel';
export { OpsFormSavedContext } from './ops-form';
export { hasResultPanel, resultPanelFor } from './registry';
