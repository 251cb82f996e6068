import { formatDate } from '@kestrel/domain';
import { Badge, Button, Group, Stack, Text, Title } from '@mantine/core';
import { useState } from 'react';
import { type SecurityRefusal, securityRefusals } from '../../../api/audit';
import { ResourceTable } from '../../../components/resource-table';

const when = (iso: string) => `${formatDate(iso)} ${iso.slice(11, 16)}`;

/**
 * Requests your organisation's people were refused, counted per person, route and hour, so a
 * script retrying a refused call shows as one line with its count, not a flood in the log above.
 */
export function RefusedRequests() {
  const [open, setOpen] = useState(false);
  return (
    <Stack gap="sm">
      <Group justify="space-between" align="end">
        <Stack gap={4}>
          <Title order={2}>Refused requests</Title>
          <Text c="dimmed">Calls that were not allowed, grouped per person, route and hour.</Text>
        </Stack>
        <Button variant="default" onClick={() => setOpen((o) => !o)}>
          {open ? 'Hide refused requests' : 'Show refused requests'}
        </Button>
      </Group>
      {open && (
        <ResourceTable<SecurityRefusal>
          resource={securityRefusals}
          params={{ ordering: '-last_seen_at' }}
          columns={[
            { key: 'last', header: 'Last', render: (r) => when(r.last_seen_at) },
            { key: 'actor', header: 'Who', render: (r) => r.actor_name || 'Unknown' },
            {
              key: 'route',
              header: 'Request',
              render: (r) => (
                <Stack gap={0}>
                  <Text size="sm">{r.route}</Text>
                  <Text size="xs" c="dimmed">
                    {r.path} · {r.reason}
                  </Text>
                </Stack>
              ),
            },
            {
              key: 'count',
              header: 'Times',
              render: (r) => (
                <Badge variant="light" color={r.count > 1 ? 'orange' : 'gray'}>
                  {r.count}
                </Badge>
              ),
            },
            { key: 'first', header: 'First', render: (r) => when(r.first_seen_at) },
          ]}
        />
      )}
    </Stack>
  );
}
