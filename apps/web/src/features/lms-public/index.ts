// What other features use of the licensing pages: the subject's applications on their dashboard.
export { LicenceApplications } from './components/licence-applications';
