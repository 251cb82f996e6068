// What other features use of the licence groups: the status and published badges.
export { LicenceStatusBadge, PublishedBadge } from './components/licence-status-badge';
