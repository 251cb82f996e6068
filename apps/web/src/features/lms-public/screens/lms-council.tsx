import { CouncilPage } from '../components/browse-pages';

/** /lms/{councilId}: the council's published licence groups (public). */
export default function Screen() {
  return <CouncilPage side="public" />;
}
