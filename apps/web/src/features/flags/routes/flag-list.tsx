import { actorNameText, FLAG_MESSAGE_MAX, formatDate } from '@kestrel/domain';
import {
  Anchor,
  Badge,
  Button,
  Group,
  Modal,
  SegmentedControl,
  Stack,
  Text,
  Textarea,
  Title,
} from '@mantine/core';
import { useState } from 'react';
import { Link } from 'react-router';
import { type Flag, flags, useResolveFlag } from '../../../api/flags';
import { ResourceTable } from '../../../components/resource-table';
import { href } from '../../../config/paths';
import { useRights } from '../../../lib/rights';

/** The resolution comment's limit (contract: flagResolve). */
const MAX = FLAG_MESSAGE_MAX;

function About({ flag }: { flag: Flag }) {
  return (
    <Stack gap={2}>
      {flag.case !== null && (
        <Anchor component={Link} to={href('case-detail', { id: flag.case })} size="sm">
          Case #{flag.case}
        </Anchor>
      )}
      {flag.subject !== null && (
        <Anchor component={Link} to={href('subject', { id: flag.subject })} size="sm">
          {flag.subject_name ?? `Subject #${flag.subject}`}
        </Anchor>
      )}
    </Stack>
  );
}

export default function FlagList() {
  const { can } = useRights();
  const [show, setShow] = useState('true');
  const [resolving, setResolving] = useState<Flag | null>(null);
  const [comment, setComment] = useState('');
  const [error, setError] = useState<string | null>(null);
  const resolve = useResolveFlag();
  const close = () => {
    setResolving(null);
    setComment('');
    setError(null);
  };
  const submit = async () => {
    if (!resolving) return;
    if (!comment.trim()) return setError('Required');
    if (comment.length > MAX) return setError(`Max length ${MAX}`);
    if (await resolve.mutateAsync({ id: resolving.id, comment: comment.trim() })) close();
  };
  const mayResolve = can('flags.change_flag');
  return (
    <Stack gap="lg">
      <Group justify="space-between">
        <Title order={1}>Flags</Title>
        <SegmentedControl
          aria-label="Show flags"
          value={show}
          onChange={setShow}
          data={[
            { value: 'true', label: 'Active' },
            { value: 'false', label: 'Resolved' },
            { value: 'all', label: 'All' },
          ]}
        />
      </Group>
      <ResourceTable<Flag>
        key={show}
        resource={flags}
        params={{ active: show === 'all' ? undefined : show }}
        empty={
          show === 'true'
            ? {
                title: 'No active flags',
                text: 'Nothing needs your attention. Flags raised by your rules or your staff appear here until someone resolves them.',
              }
            : {
                title: 'No flags yet',
                text: 'Flags appear here once a rule or a member of staff raises one.',
              }
        }
        filters={[
          {
            name: 'kind',
            label: 'Raised by',
            options: [
              { value: 'rule', label: 'A rule' },
              { value: 'manual', label: 'Staff' },
            ],
          },
        ]}
        columns={[
          {
            key: 'message',
            header: 'Flag',
            render: (f) => (
              <Stack gap={2}>
                <Text size="sm" fw={500}>
                  {f.message}
                </Text>
                <Text size="xs" c="dimmed">
                  {f.kind === 'rule'
                    ? 'Raised by a rule'
                    : `Raised by ${f.created_by_name ?? 'staff'}`}
                </Text>
              </Stack>
            ),
          },
          { key: 'about', header: 'About', render: (f) => <About flag={f} /> },
          { key: 'created', header: 'Raised', render: (f) => formatDate(f.created_at) },
          {
            key: 'status',
            header: 'Status',
            render: (f) =>
              f.active ? (
                mayResolve ? (
                  <Button size="compact-sm" variant="light" onClick={() => setResolving(f)}>
                    Resolve
                  </Button>
                ) : (
                  <Badge color="red" variant="light">
                    Active
                  </Badge>
                )
              ) : (
                <Stack gap={2}>
                  <Badge color="teal" variant="light">
                    Resolved
                  </Badge>
                  <Text size="xs" c="dimmed">
                    {formatDate(f.resolved_at)}
                    {` by ${actorNameText(f.resolved_by_name)}`}
                    {f.resolution_comment ? `: ${f.resolution_comment}` : ''}
                  </Text>
                </Stack>
              ),
          },
        ]}
      />
      <Modal opened={resolving !== null} onClose={close} title="Resolve flag">
        <Stack gap="md">
          <Text size="sm">{resolving?.message}</Text>
          <Textarea
            label="Comment"
            required
            rows={4}
            value={comment}
            error={error}
            description={`${comment.length}/${MAX}`}
            onChange={(e) => {
              setComment(e.currentTarget.value);
              setError(null);
            }}
          />
          <Group justify="flex-end">
            <Button variant="default" onClick={close}>
              Cancel
            </Button>
            <Button onClick={submit} loading={resolve.isPending} disabled={comment.length > MAX}>
              Resolve flag
            </Button>
          </Group>
        </Stack>
      </Modal>
    </Stack>
  );
}
