export { CaseRetentionCard } from './legal-hold-card';
export { RedactionNotice } from './redaction-notice';
