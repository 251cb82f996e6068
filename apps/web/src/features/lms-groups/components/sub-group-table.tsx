import { Button } from '@mantine/core';
import { Link } from 'react-router';
import { ResourceTable } from '../../../components/resource-table';
import { href } from '../../../config/paths';
import { useRights } from '../../../lib/rights';
import { type LicenceSubGroup, licenceSubGroups } from '../api';
import { PublishedBadge } from './licence-status-badge';

/** One group's sub-groups: name, code, public state and definitions counted, each a link. */
export function SubGroupTable({ groupId }: { groupId: number }) {
  const { can } = useRights();
  const mayAdd = can('lms_definitions.add_definition');
  return (
    <ResourceTable<LicenceSubGroup>
      resource={licenceSubGroups}
      params={{ group: groupId }}
      searchable={false}
      rowHref={(s) => href('licence-sub-group', { id: groupId, subGroupId: s.id })}
      empty={{
        title: 'No sub-groups yet',
        text: "Add the group's licence types, such as hackney carriage drivers or vehicles.",
        action: mayAdd ? (
          <Button component={Link} to={href('licence-sub-group-add', { id: groupId })} size="sm">
            Add the first sub-group
          </Button>
        ) : undefined,
      }}
      columns={[
        { key: 'name', header: 'Name', render: (s) => s.name },
        { key: 'code', header: 'Code', render: (s) => s.code },
        {
          key: 'published',
          header: 'Public pages',
          render: (s) => <PublishedBadge isPublished={s.is_published} />,
        },
        { key: 'definitions', header: 'Definitions', render: (s) => s.definition_count },
      ]}
    />
  );
}
