import { Button, Group, Paper, Stack, Text, Title } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import {
  OUTBOX_LIST_PARAMS,
  OUTBOX_PAGE_SIZE,
  type OutboxEmail,
  outboxEmails,
} from '../../../api/outbox';
import { ResourceTable } from '../../../components/resource-table';
import { href } from '../../../config/paths';
import { receivedAt } from '../components/received-at';

/** The local mail outbox: every email the server sent, newest first. */
export default function OutboxList() {
  const client = useQueryClient();
  // The same query (and cache entry) as the table's unfiltered first page: no extra request.
  const first = outboxEmails.useList({
    ...OUTBOX_LIST_PARAMS,
    page: 1,
    page_size: OUTBOX_PAGE_SIZE,
  });
  const empty = !first.isPending && first.data?.count === 0 && !first.data.failed;
  const refresh = () => client.invalidateQueries({ queryKey: outboxEmails.key });
  return (
    <Stack gap="lg">
      <Group justify="space-between" align="flex-end" gap="sm">
        <Stack gap={4}>
          <Title order={1}>Outbox</Title>
          <Text c="dimmed">
            Every email the server sent while SMTP is not configured, newest first.
          </Text>
        </Stack>
        <Button variant="default" size="sm" onClick={refresh} loading={first.isFetching}>
          Refresh
        </Button>
      </Group>
      {empty ? (
        <Paper withBorder radius="lg" p="xl" data-testid="outbox-empty">
          <Text ta="center" fw={600}>
            No emails yet
          </Text>
          <Text ta="center" c="dimmed" size="sm" mt={4}>
            Password resets, invitations and notifications appear here as soon as they are sent.
          </Text>
        </Paper>
      ) : (
        <ResourceTable<OutboxEmail>
          resource={outboxEmails}
          params={OUTBOX_LIST_PARAMS}
          pageSize={OUTBOX_PAGE_SIZE}
          rowHref={(m) => href('ops:outbox-email', { id: m.id })}
          columns={[
            {
              key: 'received',
              header: 'Received',
              render: (m) => (
                <Text size="sm" component="span" style={{ whiteSpace: 'nowrap' }}>
                  {receivedAt(m.created_at)}
                </Text>
              ),
            },
            {
              key: 'to',
              header: 'To',
              render: (m) => (
                <Text size="sm" component="span" style={{ whiteSpace: 'nowrap' }}>
                  {m.to}
                </Text>
              ),
            },
            { key: 'subject', header: 'Subject', render: (m) => m.subject || '(no subject)' },
          ]}
        />
      )}
    </Stack>
  );
}
