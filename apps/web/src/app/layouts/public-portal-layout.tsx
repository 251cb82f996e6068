import PublicLayout from './public-layout';
import { WithQueries } from './with-queries';

/** Public pages that fetch data (portals, payment): the public layout with TanStack Query. */
export default function PublicPortalLayout() {
  return (
    <WithQueries>
      <PublicLayout />
    </WithQueries>
  );
}
