import { SubGroupPage } from '../components/browse-pages';

/** /s/lms/.../{licenceSubGroupId}: the open application portals, for a signed-in subject. */
export default function Screen() {
  return <SubGroupPage side="subject" />;
}
