import { CouncilPage } from '../components/browse-pages';

/** /s/lms/{councilId}: the council's licence groups, for a signed-in subject. */
export default function Screen() {
  return <CouncilPage side="subject" />;
}
