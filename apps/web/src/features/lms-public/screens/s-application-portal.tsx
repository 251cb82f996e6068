import { SubjectPortalPage } from '../components/apply-panel';

/** /s/application-portals/{id}: the portal with the tax check and Apply, for a signed-in subject. */
export default function Screen() {
  return <SubjectPortalPage />;
}
