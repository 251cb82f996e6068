// What other features use of regportals: the subject page's Registrations tab.
export { SubjectRegistrationsTab } from './components/subject-registrations-tab';
