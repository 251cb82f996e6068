// What other features use of cycles: the subject page's subscriptions tab.
export { SubjectSubscriptionsTab } from './components/subject-subscriptions-tab';
