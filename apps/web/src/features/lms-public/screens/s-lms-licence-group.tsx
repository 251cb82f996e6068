import { GroupPage } from '../components/browse-pages';

/** /s/lms/{councilId}/{licenceGroupId}: the group's sub-groups, for a signed-in subject. */
export default function Screen() {
  return <GroupPage side="subject" />;
}
