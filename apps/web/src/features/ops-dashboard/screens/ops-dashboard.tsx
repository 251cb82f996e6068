import { formatDate } from '@kestrel/domain';
import {
  Anchor,
  Group,
  Paper,
  ScrollArea,
  SimpleGrid,
  Skeleton,
  Stack,
  Table,
  Text,
  Title,
} from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { Link } from 'react-router';
import classes from '../../../components/list-table.module.css';
import { href } from '../../../config/paths';
import { opsDashboardOptions, queueHref } from '../api';
import { ThroughputChart } from '../components/throughput-chart';

function Figure({
  label,
  value,
  to,
  alert = false,
}: {
  label: string;
  value: number;
  to?: string;
  alert?: boolean;
}) {
  const body = (
    <Stack gap={2}>
      <Text size="xs" c="dimmed" tt="uppercase" fw={700}>
        {label}
      </Text>
      <Text
        fz={28}
        fw={700}
        lh={1.1}
        c={alert && value > 0 ? 'var(--mantine-color-red-text)' : undefined}
      >
        {value}
      </Text>
    </Stack>
  );
  return (
    <Paper withBorder radius="lg" p="md" data-testid={`figure-${label}`}>
      {to ? (
        <Anchor component={Link} to={to} underline="never" c="inherit">
          {body}
        </Anchor>
      ) : (
        body
      )}
    </Paper>
  );
}

const hours = (n: number) => (n % 24 === 0 ? `${n / 24} day${n === 24 ? '' : 's'}` : `${n} hours`);

/** Operations' morning view (issue 29): every figure links to the list behind it. */
export default function OpsDashboard() {
  const query = useQuery(opsDashboardOptions());
  const d = query.data;
  return (
    <Stack gap="lg">
      <Stack gap={4}>
        <Title order={1}>Operations dashboard</Title>
        <Text c="dimmed">What waits for operations across every customer, oldest first.</Text>
      </Stack>
      {!d ? (
        query.isPending ? (
          <Skeleton h={320} radius="lg" />
        ) : (
          <Text c="red.8">The dashboard could not be loaded.</Text>
        )
      ) : (
        <>
          <SimpleGrid cols={{ base: 2, sm: 4 }}>
            <Figure label="Waiting" value={d.waiting.total} to={queueHref()} />
            <Figure
              label="Past target"
              value={d.waiting.past_target}
              to={queueHref({ past_target: 'true' })}
              alert
            />
            <Figure
              label="Unassigned"
              value={d.waiting.unassigned}
              to={queueHref({ assignee: 'unassigned' })}
            />
            <Figure
              label="Provider errors"
              value={d.provider_errors}
              to={queueHref({ state: 'ca-error-initiating' })}
              alert
            />
            <Figure
              label="Dead-letter jobs"
              value={d.dead_jobs}
              to={href('ops:jobs', {}, { state: 'failed' })}
              alert
            />
            <Figure
              label="Escalated checks"
              value={d.open_escalations}
              to={href('ops:escalations')}
              alert
            />
            <Figure
              label="Payments needing attention"
              value={d.payments.declined + d.payments.awaiting}
              to={href('ops:portal-payments')}
              alert
            />
            <Figure
              label="Refunds unanswered"
              value={d.payments.refunds_unanswered}
              to={href('ops:portal-payments', {}, { refund: 'unanswered' })}
              alert
            />
            {d.imports_running !== null && (
              <Figure label="Imports running" value={d.imports_running} to={href('ops:imports')} />
            )}
          </SimpleGrid>
          <SimpleGrid cols={{ base: 1, lg: 2 }}>
            <Paper withBorder radius="lg" p="md">
              <Title order={2} size="h4" mb="sm">
                Waiting by kind
              </Title>
              {d.by_kind.length === 0 ? (
                <Text c="dimmed">Nothing is waiting for operations.</Text>
              ) : (
                <ScrollArea
                  viewportProps={{ tabIndex: 0, role: 'region', 'aria-label': 'Waiting by kind' }}
                >
                  <Table
                    verticalSpacing="xs"
                    data-testid="by-kind"
                    className={classes.table}
                    style={{ '--list-min-width': '0px' }}
                  >
                    <Table.Thead>
                      <Table.Tr>
                        <Table.Th>Check</Table.Th>
                        <Table.Th>Target</Table.Th>
                        <Table.Th>Waiting</Table.Th>
                        <Table.Th>Past target</Table.Th>
                        <Table.Th>Oldest since</Table.Th>
                      </Table.Tr>
                    </Table.Thead>
                    <Table.Tbody>
                      {d.by_kind.map((k) => (
                        <Table.Tr key={k.activity_type}>
                          <Table.Td data-label="Check">{k.activity_type_name}</Table.Td>
                          <Table.Td data-label="Target">{hours(k.target_hours)}</Table.Td>
                          <Table.Td data-label="Waiting">
                            <Anchor
                              component={Link}
                              to={queueHref({ activity_type: k.activity_type })}
                              aria-label={`${k.activity_type_name}: ${k.count} waiting`}
                            >
                              {k.count}
                            </Anchor>
                          </Table.Td>
                          <Table.Td data-label="Past target">
                            {k.past_target > 0 ? (
                              <Anchor
                                component={Link}
                                to={queueHref({
                                  activity_type: k.activity_type,
                                  past_target: 'true',
                                })}
                                aria-label={`${k.activity_type_name}: ${k.past_target} past target`}
                              >
                                <Text span fw={700} size="sm" c="var(--mantine-color-red-text)">
                                  {k.past_target} past target
                                </Text>
                              </Anchor>
                            ) : (
                              <Text size="sm" c="dimmed">
                                0
                              </Text>
                            )}
                          </Table.Td>
                          <Table.Td data-label="Oldest since" style={{ whiteSpace: 'nowrap' }}>
                            {formatDate(k.oldest_since)}
                          </Table.Td>
                        </Table.Tr>
                      ))}
                    </Table.Tbody>
                  </Table>
                </ScrollArea>
              )}
            </Paper>
            <Paper withBorder radius="lg" p="md">
              <Title order={2} size="h4" mb="sm">
                Waiting by age
              </Title>
              <Stack gap="xs" data-testid="by-age">
                {d.by_age.map((b) => (
                  <Group key={b.bucket} justify="space-between">
                    <Text size="sm">{b.label}</Text>
                    <Anchor
                      component={Link}
                      to={queueHref({
                        older_than_days: String(b.min_days),
                        ...(b.max_days === null ? {} : { newer_than_days: String(b.max_days) }),
                      })}
                      aria-label={`${b.label}: ${b.count} waiting`}
                      fw={700}
                      c={
                        b.min_days >= 1 && b.count > 0 ? 'var(--mantine-color-red-text)' : undefined
                      }
                    >
                      {b.count}
                    </Anchor>
                  </Group>
                ))}
              </Stack>
            </Paper>
          </SimpleGrid>
          <Paper withBorder radius="lg" p="md">
            <Title order={2} size="h4" mb="sm">
              Throughput: activities completed per week
            </Title>
            <ThroughputChart weeks={d.completed_by_week} />
          </Paper>
        </>
      )}
    </Stack>
  );
}
