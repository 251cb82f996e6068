import { CouncilListPage } from '../components/browse-pages';

/** /lms/council-list: the councils that publish licences (public). */
export default function Screen() {
  return <CouncilListPage side="public" />;
}
