import { formatDate } from '@kestrel/domain';
import {
  Badge,
  Button,
  Group,
  Paper,
  ScrollArea,
  SegmentedControl,
  Skeleton,
  Stack,
  Table,
  Text,
  Title,
  VisuallyHidden,
} from '@mantine/core';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useSearchParams } from 'react-router';
import { ListPagination } from '../../../components/list-states';
import classes from '../../../components/list-table.module.css';
import { notify } from '../../../lib/notify';
import { actOnJob, JOBS_PAGE_SIZE, JOBS_PATH, type Job, jobsOptions } from '../api';

const STATES = [
  { value: 'failed', label: 'Dead' },
  { value: 'retry', label: 'Retrying' },
  { value: '', label: 'All' },
];

const when = (iso: string) => {
  const d = new Date(iso);
  return `${formatDate(d)} ${d.toISOString().slice(11, 16)}`;
};

function JobActions({ job, onDone }: { job: Job; onDone: () => void }) {
  const [busy, setBusy] = useState<'retry' | 'discard' | null>(null);
  if (job.state !== 'failed') return null;
  const act = async (action: 'retry' | 'discard') => {
    setBusy(action);
    const failure = await actOnJob(job.id, action);
    setBusy(null);
    if (failure) notify.error(failure);
    else notify.success(action === 'retry' ? 'Job queued again.' : 'Job discarded.');
    onDone();
  };
  return (
    <Group gap="xs" wrap="nowrap">
      <Button size="xs" onClick={() => act('retry')} loading={busy === 'retry'} disabled={!!busy}>
        Retry
      </Button>
      <Button
        size="xs"
        variant="default"
        color="red"
        onClick={() => act('discard')}
        loading={busy === 'discard'}
        disabled={!!busy}
      >
        Discard
      </Button>
    </Group>
  );
}

/** Operations' background jobs (issue 33): the dead ones first, each retried or discarded. */
export default function OpsJobs() {
  const [search, setSearch] = useSearchParams();
  const state = search.get('state') ?? 'failed';
  const page = Math.max(1, Number(search.get('page') ?? '1') || 1);
  const client = useQueryClient();
  const query = useQuery(jobsOptions(state, page));
  const refresh = () => client.invalidateQueries({ queryKey: [JOBS_PATH] });
  const data = query.data;
  const pages = data ? Math.max(1, Math.ceil(data.count / JOBS_PAGE_SIZE)) : 1;
  const go = (next: { state?: string; page?: number }) => {
    const params = new URLSearchParams(search);
    if (next.state !== undefined) {
      params.set('state', next.state);
      params.delete('page');
    }
    if (next.page !== undefined) params.set('page', String(next.page));
    setSearch(params);
  };
  return (
    <Stack gap="lg">
      <Group justify="space-between" align="flex-end" gap="sm">
        <Stack gap={4}>
          <Title order={1}>Jobs</Title>
          <Text c="dimmed">
            Background work whose retries ran out is dead: retry it once the cause is fixed, or
            discard it.
          </Text>
        </Stack>
        <Button variant="default" size="sm" onClick={refresh} loading={query.isFetching}>
          Refresh
        </Button>
      </Group>
      <SegmentedControl
        value={state}
        onChange={(v) => go({ state: v })}
        data={STATES}
        aria-label="Job state"
        w="fit-content"
      />
      {query.isPending ? (
        <Skeleton h={240} radius="lg" />
      ) : !data ? (
        <Text c="red.8">The jobs could not be loaded.</Text>
      ) : data.count === 0 ? (
        <Paper withBorder radius="lg" p="xl" data-testid="jobs-empty">
          <Text ta="center" fw={600}>
            {state === 'failed' ? 'No dead jobs' : 'No jobs'}
          </Text>
          <Text ta="center" c="dimmed" size="sm" mt={4}>
            Jobs that fail every retry are listed here for two weeks.
          </Text>
        </Paper>
      ) : (
        <Paper withBorder radius="lg">
          <ScrollArea viewportProps={{ tabIndex: 0, role: 'region', 'aria-label': 'Jobs' }}>
            <Table
              verticalSpacing="sm"
              data-testid="jobs-table"
              className={classes.table}
              style={{ '--list-min-width': '760px' }}
            >
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>Job</Table.Th>
                  <Table.Th>Error</Table.Th>
                  <Table.Th>Attempts</Table.Th>
                  <Table.Th>Created</Table.Th>
                  <Table.Th>
                    <VisuallyHidden>Actions</VisuallyHidden>
                  </Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {data.results.map((j) => (
                  <Table.Tr key={j.id} data-testid={`job-${j.id}`}>
                    <Table.Td data-label="Job">
                      <div>
                        <Group gap="xs" wrap="nowrap">
                          <Text fw={600} size="sm">
                            {j.name}
                          </Text>
                          <Badge
                            size="sm"
                            variant="light"
                            color={j.state === 'failed' ? 'red' : 'gray'}
                          >
                            {j.state === 'failed' ? 'dead' : j.state}
                          </Badge>
                        </Group>
                        <Text size="xs" c="dimmed" style={{ overflowWrap: 'anywhere' }}>
                          {j.data_summary || '—'}
                        </Text>
                      </div>
                    </Table.Td>
                    <Table.Td maw={320} data-label="Error">
                      <Text size="sm" lineClamp={3} style={{ wordBreak: 'break-word' }}>
                        {j.error ?? '—'}
                      </Text>
                    </Table.Td>
                    <Table.Td data-label="Attempts">
                      <Text size="sm">
                        {j.retry_count + 1} of {j.retry_limit + 1}
                      </Text>
                    </Table.Td>
                    <Table.Td data-label="Created">
                      <Text size="sm" style={{ whiteSpace: 'nowrap' }}>
                        {when(j.created_on)}
                      </Text>
                    </Table.Td>
                    <Table.Td data-label="Actions">
                      <JobActions job={j} onDone={refresh} />
                    </Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </ScrollArea>
        </Paper>
      )}
      <ListPagination
        total={pages}
        value={page}
        onChange={(p) => go({ page: p })}
        label="Pages of jobs"
      />
    </Stack>
  );
}
