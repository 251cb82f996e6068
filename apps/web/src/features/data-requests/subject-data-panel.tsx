import { formatDate } from '@kestrel/domain';
import {
  Alert,
  Anchor,
  Badge,
  Button,
  Group,
  List,
  Paper,
  Stack,
  Text,
  Textarea,
  Title,
} from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { Link } from 'react-router';
import { href } from '../../config/paths';
import { useRights } from '../../lib/rights';
import {
  archiveHref,
  type ErasureRequest,
  erasureListOptions,
  errorText,
  removedLines,
  useDecideErasure,
  useRecordErasure,
} from './api';

export const stateColor = { pending: 'yellow', refused: 'gray', completed: 'teal' } as const;

import { ErasureReasonForm } from './erasure-reason-form';
/** What a carried-out erasure removed and kept. */
export function ErasureOutcomeView({ request }: { request: ErasureRequest }) {
  const { outcome } = request;
  if (!outcome) return null;
  return (
    <Stack gap={4}>
      <Text fw={600} size="sm">
        Removed
      </Text>
      <List size="sm">
        {removedLines(outcome).map((line) => (
          <List.Item key={line}>{line}</List.Item>
        ))}
      </List>
      <Text fw={600} size="sm">
        Kept
      </Text>
      <List size="sm">
        {outcome.kept.map((line) => (
          <List.Item key={line}>{line}</List.Item>
        ))}
      </List>
    </Stack>
  );
}

/** The decision on a pending request: approve (carried out at once) or refuse with a reason. */
export function DecideErasure({ request }: { request: ErasureRequest }) {
  const decide = useDecideErasure();
  const [reason, setReason] = useState('');
  const [error, setError] = useState<string | null>(null);
  const go = async (decision: 'approve' | 'refuse') => {
    setError(null);
    const res = await decide.mutateAsync({ id: request.id, decision, reason });
    if (!res.ok) setError(errorText(res.data));
  };
  return (
    <Stack gap="xs">
      <Textarea
        label="Reason for the decision"
        description="Needed to refuse; kept with the request."
        value={reason}
        onChange={(e) => setReason(e.currentTarget.value)}
        maxLength={1000}
        autosize
        minRows={2}
      />
      {error && (
        <Alert color="red" role="alert">
          {error}
        </Alert>
      )}
      <Group justify="flex-end">
        <Button variant="default" onClick={() => go('refuse')} loading={decide.isPending}>
          Refuse request
        </Button>
        <Button color="red" onClick={() => go('approve')} loading={decide.isPending}>
          Approve and erase
        </Button>
      </Group>
    </Stack>
  );
}

function RecordErasure({ subjectId }: { subjectId: number }) {
  const record = useRecordErasure();
  const [open, setOpen] = useState(false);
  const [reason, setReason] = useState('');
  const [error, setError] = useState<string | null>(null);
  if (!open) {
    return (
      <Group>
        <Button variant="default" onClick={() => setOpen(true)}>
          Record erasure request
        </Button>
      </Group>
    );
  }
  const save = async () => {
    setError(null);
    const res = await record.mutateAsync({ subject: subjectId, reason });
    if (res.ok) setOpen(false);
    else setError(errorText(res.data));
  };
  return (
    <ErasureReasonForm
      label="How the person asked"
      submit="Record request"
      value={reason}
      onChange={setReason}
      error={error}
      pending={record.isPending}
      onCancel={() => setOpen(false)}
      onSubmit={save}
    />
  );
}

/**
 * The subject page's 'Personal data' card (issue 34): download everything held about the
 * subject as a ZIP, record an erasure request, decide it, and see what was done.
 */
export function SubjectDataPanel({ subjectId }: { subjectId: number }) {
  const { can } = useRights();
  const query = useQuery(erasureListOptions({ subject: subjectId }));
  const requests = query.data?.results ?? [];
  const pending = requests.find((r) => r.state === 'pending');
  const done = requests.find((r) => r.state === 'completed');
  return (
    <Paper withBorder radius="lg" p={{ base: 'md', sm: 'xl' }}>
      <Stack gap="md">
        <Title order={2} size="h4">
          Personal data
        </Title>
        <Text size="sm" c="dimmed">
          Everything held about this person (profile, cases, answers, consents, checks and
          documents) as one ZIP archive. Each download is recorded in the audit log.
        </Text>
        {can(['subjects.view_subject', 'cases.view_case']) && (
          <Group>
            <Button component="a" href={archiveHref(subjectId)} download variant="light">
              Download data archive
            </Button>
          </Group>
        )}
        {requests.map((r) => (
          <Paper key={r.id} withBorder radius="md" p="md">
            <Stack gap="xs">
              <Group justify="space-between" wrap="wrap">
                <Text fw={600}>Erasure request of {formatDate(r.created_at)}</Text>
                <Badge color={stateColor[r.state]} variant="light">
                  {r.state_display}
                </Badge>
              </Group>
              <Text size="sm">
                {r.requested_by === 'subject' ? 'Asked by the person' : 'Recorded by'}{' '}
                {r.requested_by === 'subject' ? '' : r.requested_by_name}
                {r.reason ? `: ${r.reason}` : ''}
              </Text>
              {r.decided_at && (
                <Text size="sm">
                  Decided on {formatDate(r.decided_at)} by {r.decided_by_name}
                  {r.decision_reason ? `: ${r.decision_reason}` : ''}
                </Text>
              )}
              <ErasureOutcomeView request={r} />
              {r.state === 'pending' && can('subjects.archive') && <DecideErasure request={r} />}
            </Stack>
          </Paper>
        ))}
        {!pending && !done && can('subjects.change_subject') && (
          <RecordErasure subjectId={subjectId} />
        )}
        <Anchor component={Link} to={href('subject-data-requests')} size="sm">
          All erasure requests
        </Anchor>
      </Stack>
    </Paper>
  );
}
