import { SubGroupPage } from '../components/browse-pages';

/** /lms/{councilId}/{licenceGroupId}/{licenceSubGroupId}: the open application portals (public). */
export default function Screen() {
  return <SubGroupPage side="public" />;
}
