// What other features use of cycles: the subject page's subscriptions tab.

// …and the subjects list's action on the subjects chosen.
export { BulkSubscribe } from './components/bulk-subscribe';
export { SubjectSubscriptionsTab } from './components/subject-subscriptions-tab';
