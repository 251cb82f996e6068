import { Button, Group, Paper, SegmentedControl, Stack, Text, Title } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { useSearchParams } from 'react-router';
import {
  OUTBOX_LIST_PARAMS,
  OUTBOX_PAGE_SIZE,
  type OutboxEmail,
  type OutboxSms,
  outboxEmails,
  outboxTexts,
} from '../../../api/outbox';
import { ResourceTable } from '../../../components/resource-table';
import { href } from '../../../config/paths';
import { receivedAt } from '../components/received-at';

/** The text messages the SMS simulator kept (issue 33), newest first. */
function TextMessages() {
  return (
    <ResourceTable<OutboxSms>
      resource={outboxTexts}
      params={OUTBOX_LIST_PARAMS}
      pageSize={OUTBOX_PAGE_SIZE}
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
        { key: 'body', header: 'Message', render: (m) => m.body },
      ]}
    />
  );
}

/** The local outbox: every email (or, `?channel=sms`, text message) sent, newest first. */
export default function OutboxList() {
  const [search, setSearch] = useSearchParams();
  const channel = search.get('channel') === 'sms' ? 'sms' : 'email';
  const client = useQueryClient();
  // The same query (and cache entry) as the table's unfiltered first page: no extra request.
  const first = outboxEmails.useList({
    ...OUTBOX_LIST_PARAMS,
    page: 1,
    page_size: OUTBOX_PAGE_SIZE,
  });
  const empty = !first.isPending && first.data?.count === 0 && !first.data.failed;
  const refresh = () =>
    client.invalidateQueries({ queryKey: channel === 'sms' ? outboxTexts.key : outboxEmails.key });
  return (
    <Stack gap="lg">
      <Group justify="space-between" align="flex-end" gap="sm">
        <Stack gap={4}>
          <Title order={1}>Outbox</Title>
          <Text c="dimmed">
            Every email sent while SMTP is not configured, and every text message while no SMS
            provider is, newest first.
          </Text>
        </Stack>
        <Button variant="default" size="sm" onClick={refresh} loading={first.isFetching}>
          Refresh
        </Button>
      </Group>
      <SegmentedControl
        w="fit-content"
        aria-label="Channel"
        value={channel}
        onChange={(v) => setSearch(v === 'sms' ? { channel: 'sms' } : {})}
        data={[
          { value: 'email', label: 'Emails' },
          { value: 'sms', label: 'Text messages' },
        ]}
      />
      {channel === 'sms' ? (
        <TextMessages />
      ) : empty ? (
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
