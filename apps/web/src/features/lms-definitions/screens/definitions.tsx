import { Button, Group, Select, Stack, Text, Title } from '@mantine/core';
import { Link, useSearchParams } from 'react-router';
import { ResourceTable } from '../../../components/resource-table';
import { href } from '../../../config/paths';
import { useRights } from '../../../lib/rights';
import { type Definition, definitions, subGroups } from '../api';
import { PublishedBadge } from '../components/definition-frame';

/**
 * /definitions: the council's licence definitions, by name, with the sub-group filter kept in
 * the URL (?sub_group=).
 */
export default function Definitions() {
  const { can } = useRights();
  const [params, setParams] = useSearchParams();
  const subGroup = params.get('sub_group');
  const groups = subGroups.useList({ page_size: 100 });
  const mayAdd = can('lms_definitions.add_definition');
  const setSubGroup = (value: string | null) =>
    setParams(
      (p) => {
        const next = new URLSearchParams(p);
        if (value) next.set('sub_group', value);
        else next.delete('sub_group');
        return next;
      },
      { replace: true },
    );
  return (
    <Stack gap="lg">
      <Group justify="space-between">
        <Stack gap={4}>
          <Title order={1}>Licence definitions</Title>
          <Text size="sm" c="dimmed">
            The licences the council issues: how long they last, what they cost and the checks an
            applicant must pass.
          </Text>
        </Stack>
        {mayAdd && (
          <Button component={Link} to={href('definition-add')}>
            Add definition
          </Button>
        )}
      </Group>
      <Stack gap="sm">
        <Group gap="sm">
          <Select
            aria-label="Sub-group"
            placeholder="Any sub-group"
            clearable
            size="sm"
            w={{ base: '100%', sm: 320 }}
            data={(groups.data?.results ?? []).map((s) => ({
              value: String(s.id),
              label: `${s.group_name} › ${s.name}`,
            }))}
            value={subGroup}
            onChange={setSubGroup}
          />
        </Group>
        <ResourceTable<Definition>
          resource={definitions}
          searchable={false}
          params={{ sub_group: subGroup ?? undefined }}
          externalFilters={{
            active: Boolean(subGroup),
            clear: () => setParams({}, { replace: true }),
          }}
          rowHref={(d) => href('definition', { id: d.id })}
          empty={{
            title: 'No licence definitions yet',
            text: 'Add a definition for each licence the council issues, such as a private hire driver licence.',
            action: mayAdd ? (
              <Button component={Link} to={href('definition-add')} size="sm">
                Add your first definition
              </Button>
            ) : undefined,
          }}
          columns={[
            { key: 'name', header: 'Name', render: (d) => d.name },
            {
              key: 'sub_group',
              header: 'Sub-group',
              render: (d) => `${d.group_name} › ${d.sub_group_name}`,
            },
            { key: 'duration', header: 'Duration', render: (d) => d.duration_text },
            { key: 'fee', header: 'Fee', render: (d) => d.fee_display },
            { key: 'checks', header: 'Checks', render: (d) => d.requirements.length },
            { key: 'portals', header: 'Portals', render: (d) => d.portal_count },
            {
              key: 'published',
              header: 'Status',
              render: (d) => <PublishedBadge published={d.is_published} />,
            },
          ]}
        />
      </Stack>
    </Stack>
  );
}
