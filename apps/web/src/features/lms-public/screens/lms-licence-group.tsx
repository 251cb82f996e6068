import { GroupPage } from '../components/browse-pages';

/** /lms/{councilId}/{licenceGroupId}: the group's sub-groups (public). */
export default function Screen() {
  return <GroupPage side="public" />;
}
