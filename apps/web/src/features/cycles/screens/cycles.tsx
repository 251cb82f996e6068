import { formatPence } from '@kestrel/domain';
import { Badge, Button, Group, Stack, Text, Title } from '@mantine/core';
import { useMemo } from 'react';
import { Link } from 'react-router';
import { ResourceTable } from '../../../components/resource-table';
import { href } from '../../../config/paths';
import { useRights } from '../../../lib/rights';
import { ProcessFrame } from '../../processes';
import { type Cycle, processCycles } from '../api';
import { requirementsText, useActivityTypeNames } from '../components/cycle-fields';
import { DeleteCycle } from '../components/delete-cycle';

/** A cycle's price per billing period in pounds ('£12.50'), marked when some check has none. */
export function cyclePrice(c: Pick<Cycle, 'price_pence' | 'price_incomplete'>): string {
  const price = formatPence(c.price_pence);
  return c.price_incomplete ? `${price} (some checks have no price)` : price;
}

function CycleList({ processId }: { processId: number }) {
  const { can } = useRights();
  const names = useActivityTypeNames();
  const resource = useMemo(() => processCycles(processId), [processId]);
  const mayAdd = can('cycles.add_cycle');
  const mayChange = can('cycles.change_cycle');
  const mayDelete = mayChange;
  return (
    <Stack gap="md">
      <Group justify="space-between">
        <Stack gap={4}>
          <Title order={2} size="h3">
            Cycles
          </Title>
          <Text size="sm" c="dimmed">
            Checks that repeat on a schedule for the subjects subscribed, billed each period.
          </Text>
        </Stack>
        {mayAdd && (
          <Button component={Link} to={href('cycle-add', { id: processId })}>
            Add cycle
          </Button>
        )}
      </Group>
      <ResourceTable<Cycle>
        resource={resource}
        searchable={false}
        empty={{
          title: 'No cycles yet',
          text: 'Add a cycle to repeat checks, such as the update service every 6 months.',
          action: mayAdd ? (
            <Button component={Link} to={href('cycle-add', { id: processId })} size="sm">
              Add your first cycle
            </Button>
          ) : undefined,
        }}
        columns={[
          { key: 'name', header: 'Name', render: (c) => c.name },
          {
            key: 'requirements',
            header: 'Requirements',
            render: (c) => requirementsText(c.requirements, names),
          },
          { key: 'repeat', header: 'Repeats', render: (c) => c.repeat_text },
          { key: 'billing', header: 'Billing cycle', render: (c) => c.billing_text },
          { key: 'price', header: 'Price', render: cyclePrice },
          {
            key: 'active',
            header: 'Active',
            render: (c) => (
              <Badge
                variant="light"
                color={c.is_active ? 'teal' : 'gray'}
                style={{ minWidth: 'max-content' }}
              >
                {c.is_active ? 'Active' : 'Inactive'}
              </Badge>
            ),
          },
          {
            key: 'actions',
            header: 'Actions',
            render: (c) => (
              <Group gap="xs" wrap="nowrap">
                {mayChange && (
                  <Button
                    component={Link}
                    to={href('cycle-edit', { id: processId, cycleId: c.id })}
                    variant="subtle"
                    size="compact-sm"
                    aria-label={`Edit ${c.name}`}
                  >
                    Edit
                  </Button>
                )}
                {mayDelete && <DeleteCycle cycle={c} />}
              </Group>
            ),
          },
        ]}
      />
    </Stack>
  );
}

/** /processes/:id/cycles: the process's cycles, with add, edit and delete. */
export default function Cycles() {
  return <ProcessFrame>{(process) => <CycleList processId={process.id} />}</ProcessFrame>;
}
