import { formatDate } from '@kestrel/domain';
import {
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
import {
  canWithdraw,
  SUBJECT_CONSENTS_PARAMS,
  type SubjectConsent,
  subjectConsents,
  useWithdrawConsent,
} from '../../api/subject-consents';
import { ListState } from '../../components/list-states';
import { LoadFailed } from './load-failed';

const STATUS: Record<SubjectConsent['status'], { text: string; color: string }> = {
  active: { text: 'Active', color: 'green' },
  expiring: { text: 'Ends soon', color: 'orange' },
  expired: { text: 'Ended', color: 'gray' },
  withdrawn: { text: 'Withdrawn', color: 'gray' },
};

function Fact({ label, children }: { label: string; children: React.ReactNode }) {
  return (
    <Stack gap={0}>
      <Text size="sm" c="dimmed">
        {label}
      </Text>
      <Text>{children}</Text>
    </Stack>
  );
}

/** /s/consents: what the person has agreed to, for which case and check, and until when. */
export default function SubjectConsentsPage() {
  const consents = useQuery(subjectConsents.listOptions(SUBJECT_CONSENTS_PARAMS));
  const withdraw = useWithdrawConsent();
  const [asking, setAsking] = useState<SubjectConsent | null>(null);
  const data = consents.data;
  return (
    <Stack gap="lg" maw={760}>
      <Stack gap={4}>
        <Title order={1}>Your consents</Title>
        <Text c="dimmed">
          What you have agreed to, so that the checks can go ahead. You can withdraw a consent at
          any time.
        </Text>
      </Stack>
      {consents.isPending ? (
        <Skeleton h={160} radius="lg" aria-label="Loading your consents" />
      ) : data?.failed ? (
        <LoadFailed what="consents" onRetry={() => consents.refetch()} />
      ) : !data || data.count === 0 ? (
        <ListState
          kind="empty"
          plural="consents"
          empty={{
            title: 'No consents yet',
            text: 'When you agree to a check in a case, your consent is listed here.',
          }}
          onRetry={noop}
          onClear={noop}
        />
      ) : (
        <Stack gap="sm" component="ul" p={0} m={0} style={{ listStyle: 'none' }}>
          {data.results.map((c) => (
            <Paper
              component="li"
              key={c.id}
              withBorder
              radius="md"
              p="md"
              data-testid="subject-consent"
              aria-labelledby={`consent-${c.id}`}
            >
              <Stack gap="sm">
                <Group justify="space-between" gap="xs" align="flex-start">
                  <Text fw={600} id={`consent-${c.id}`}>
                    {c.kind_display}
                  </Text>
                  <Badge
                    color={STATUS[c.status].color}
                    variant="light"
                    size="lg"
                    radius="sm"
                    tt="none"
                    data-state={c.status}
                  >
                    {STATUS[c.status].text}
                  </Badge>
                </Group>
                <SimpleGrid cols={{ base: 1, xs: 2 }} spacing="xs">
                  <Fact label="Case">
                    {c.customer_name} (case {c.case})
                  </Fact>
                  <Fact label="Check">{c.activity_type_name}</Fact>
                  <Fact label="Given">{formatDate(c.given_at)}</Fact>
                  <Fact label={c.withdrawn_at ? 'Withdrawn' : 'Expires'}>
                    {c.withdrawn_at
                      ? formatDate(c.withdrawn_at)
                      : c.expires_at
                        ? formatDate(c.expires_at)
                        : 'Does not expire'}
                  </Fact>
                </SimpleGrid>
                {canWithdraw(c) && (
                  <Group justify="flex-end">
                    <Button
                      variant="default"
                      mih={44}
                      onClick={() => setAsking(c)}
                      aria-label={`Withdraw consent: ${c.kind_display}, ${c.customer_name}`}
                    >
                      Withdraw
                    </Button>
                  </Group>
                )}
              </Stack>
            </Paper>
          ))}
        </Stack>
      )}
      <Modal
        opened={asking !== null}
        onClose={() => setAsking(null)}
        title="Withdraw this consent?"
        centered
      >
        {asking && (
          <Stack gap="md">
            <Text>
              {asking.customer_name} cannot continue the check “{asking.activity_type_name}” without
              your consent. We will tell them you withdrew it, and they may contact you.
            </Text>
            <Group justify="flex-end" gap="sm">
              <Button variant="default" mih={44} onClick={() => setAsking(null)}>
                Keep consent
              </Button>
              <Button
                color="red"
                mih={44}
                loading={withdraw.isPending}
                onClick={() => withdraw.mutate(asking.id, { onSuccess: () => setAsking(null) })}
              >
                Withdraw consent
              </Button>
            </Group>
          </Stack>
        )}
      </Modal>
    </Stack>
  );
}

const noop = () => undefined;
