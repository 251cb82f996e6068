import { formatDate } from '@kestrel/domain';
import {
  Anchor,
  Badge,
  SegmentedControl,
  Skeleton,
  Stack,
  Table,
  Text,
  Title,
} from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { Link } from 'react-router';
import { href } from '../../config/paths';
import { type ErasureState, erasureListOptions } from './api';
import { stateColor } from './subject-data-panel';

/** /subjects/data-requests: the organisation's erasure requests and their state. */
export default function DataRequestsPage() {
  const [state, setState] = useState<'all' | ErasureState>('all');
  const query = useQuery(erasureListOptions(state === 'all' ? {} : { state }));
  const rows = query.data?.results ?? [];
  return (
    <Stack gap="lg">
      <Anchor component={Link} to={href('subjects')} size="sm">
        ← All subjects
      </Anchor>
      <Title order={1}>Erasure requests</Title>
      <Text c="dimmed">
        Requests to erase a person's data, recorded by your staff or asked by the person, and what
        was done.
      </Text>
      <SegmentedControl
        value={state}
        onChange={(v) =>
          setState(v === 'pending' || v === 'refused' || v === 'completed' ? v : 'all')
        }
        data={[
          { value: 'all', label: 'All' },
          { value: 'pending', label: 'Awaiting a decision' },
          { value: 'completed', label: 'Carried out' },
          { value: 'refused', label: 'Refused' },
        ]}
        style={{ alignSelf: 'flex-start' }}
      />
      {query.isPending ? (
        <Skeleton h={120} />
      ) : rows.length === 0 ? (
        <Text c="dimmed">No erasure requests.</Text>
      ) : (
        <Table.ScrollContainer minWidth={560}>
          <Table>
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Subject</Table.Th>
                <Table.Th>Asked</Table.Th>
                <Table.Th>By</Table.Th>
                <Table.Th>State</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {rows.map((r) => (
                <Table.Tr key={r.id}>
                  <Table.Td>
                    <Anchor component={Link} to={href('subject', { id: r.subject.id })}>
                      {r.subject.name}
                    </Anchor>
                  </Table.Td>
                  <Table.Td>{formatDate(r.created_at)}</Table.Td>
                  <Table.Td>
                    {r.requested_by === 'subject' ? 'The person' : r.requested_by_name}
                  </Table.Td>
                  <Table.Td>
                    <Badge color={stateColor[r.state]} variant="light">
                      {r.state_display}
                    </Badge>
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
    </Stack>
  );
}
