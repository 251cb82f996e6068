import { formatDate } from '@kestrel/domain';
import {
  Anchor,
  Badge,
  Button,
  Group,
  Modal,
  Paper,
  SimpleGrid,
  Skeleton,
  Stack,
  Text,
  Title,
} from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import {
  type DuplicatePair,
  duplicatesOptions,
  fullName,
  type Subject,
  useSubjectAction,
} from '../../../api/subjects';
import { href } from '../../../config/paths';
import { useRights } from '../../../lib/rights';

const REASONS = { name_dob: 'Same name and date of birth', email: 'Same email address' };

function Card({ s }: { s: Subject }) {
  return (
    <Stack gap={2}>
      <Anchor component={Link} to={href('subject', { id: s.id })} fw={600}>
        {fullName(s)}
      </Anchor>
      <Text size="sm">{s.email}</Text>
      <Text size="sm" c="dimmed">
        Born {formatDate(s.dob) || 'unknown'} · added {formatDate(s.created_at)} · {s.open_cases}{' '}
        open case(s)
      </Text>
    </Stack>
  );
}

/** Likely duplicate subjects (entitlement subject_dedup), with merge. */
export default function SubjectDuplicates() {
  const [params] = useSearchParams();
  const one = params.get('subject');
  const { can } = useRights();
  const mayMerge = can('subjects.change_subject') && can('subjects.archive');
  const query = useQuery(duplicatesOptions(one));
  const merge = useSubjectAction<Subject>('merge');
  const [pending, setPending] = useState<DuplicatePair | null>(null);
  const pairs = query.data?.results ?? [];
  const confirm = async () => {
    if (!pending) return;
    await merge.mutateAsync({ id: pending.subject.id, body: { duplicate: pending.duplicate.id } });
    setPending(null);
    await query.refetch();
  };
  return (
    <Stack gap="lg">
      <Title order={1}>Possible duplicates</Title>
      <Text c="dimmed">
        Subjects that share a name and date of birth, or an email address. Merging moves the
        duplicate's cases and flags to the subject you keep and archives the duplicate.
      </Text>
      {query.isPending ? (
        <Skeleton h={120} radius="lg" />
      ) : pairs.length === 0 ? (
        <Paper withBorder radius="lg" p="xl">
          <Text c="dimmed" ta="center">
            No likely duplicates.
          </Text>
        </Paper>
      ) : (
        pairs.map((pair) => (
          <Paper
            key={`${pair.subject.id}-${pair.duplicate.id}`}
            withBorder
            radius="lg"
            p="lg"
            data-testid="duplicate-pair"
          >
            <Group gap="xs" mb="sm">
              {pair.reasons.map((r) => (
                <Badge key={r} variant="light">
                  {REASONS[r]}
                </Badge>
              ))}
            </Group>
            <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="lg">
              <Card s={pair.subject} />
              <Card s={pair.duplicate} />
            </SimpleGrid>
            {mayMerge && (
              <Group justify="flex-end" mt="md">
                <Button variant="default" onClick={() => setPending(pair)}>
                  Merge into {fullName(pair.subject)}
                </Button>
              </Group>
            )}
          </Paper>
        ))
      )}
      <Modal opened={pending !== null} onClose={() => setPending(null)} title="Merge subjects">
        {pending && (
          <Stack gap="md">
            <Text>
              Keep <strong>{fullName(pending.subject)}</strong> ({pending.subject.email}) and move
              the cases and flags of <strong>{fullName(pending.duplicate)}</strong> (
              {pending.duplicate.email}) to it? The duplicate is archived.
            </Text>
            <Group justify="flex-end">
              <Button variant="default" onClick={() => setPending(null)}>
                Cancel
              </Button>
              <Button onClick={confirm} loading={merge.isPending}>
                Merge
              </Button>
            </Group>
          </Stack>
        )}
      </Modal>
    </Stack>
  );
}
