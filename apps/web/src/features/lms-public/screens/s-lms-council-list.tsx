import { CouncilListPage } from '../components/browse-pages';

/** /s/lms/council-list: the councils, for a signed-in subject. */
export default function Screen() {
  return <CouncilListPage side="subject" />;
}
