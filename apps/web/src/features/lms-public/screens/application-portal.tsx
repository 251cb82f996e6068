import { PublicPortalPage } from '../components/portal-page';

/** /application-portals/{id}: what the licence needs and costs; applying starts with signing in. */
export default function Screen() {
  return <PublicPortalPage />;
}
