import { ApplicationPage } from '../components/application-page';

/** /s/lms/applications/{id}: one of the subject's licence applications. */
export default function Screen() {
  return <ApplicationPage />;
}
