import { auditActorName, CASE_STATE_LABELS, CASE_STATES, formatDate } from '@kestrel/domain';
import {
  Anchor,
  Button,
  Group,
  Paper,
  SimpleGrid,
  Skeleton,
  Stack,
  Text,
  Title,
} from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { Link, useSearchParams } from 'react-router';
import { dashboardOptions } from '../../../api/dashboard';
import { href } from '../../../config/paths';
import { useRights } from '../../../lib/rights';
import { useProductProfile } from '../../../lib/session/profile';
import { useSession } from '../../../lib/session/session-store';
import { WeeklyChart } from '../components/weekly-chart';

function Stat({ label, value, to }: { label: string; value: number; to?: string }) {
  const body = (
    <Stack gap={2}>
      <Text size="xs" c="dimmed" tt="uppercase" fw={700}>
        {label}
      </Text>
      <Text fz={28} fw={700} lh={1.1}>
        {value}
      </Text>
    </Stack>
  );
  return (
    <Paper withBorder radius="lg" p="md" data-testid={`stat-${label}`}>
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

export default function DashboardPage() {
  const profile = useProductProfile();
  // A new sign-up lands here with ?welcome=new: greeted 'Welcome', not 'Welcome back'.
  const [search] = useSearchParams();
  const greeting = search.get('welcome') === 'new' ? 'Welcome' : 'Welcome back';
  const { bootstrap } = useSession();
  const verbName = (code: string) =>
    bootstrap?.verbs.find((v) => v.code === code)?.name.toLowerCase() ?? code.replace(/_/g, ' ');
  const { can } = useRights();
  const mayView = can('cases.view_case');
  const query = useQuery({ ...dashboardOptions(), enabled: mayView });
  const d = query.data;
  const links = [
    can('cases.add_case') && { to: href('case-add'), label: 'Add case', primary: true },
    can('subjects.add_subject') && { to: href('subject-add'), label: 'Add subject' },
    can('processes.add_process') && { to: href('process-add'), label: 'Add process' },
    mayView && { to: href('cases'), label: 'All cases' },
    can('audit.view_auditaction') && { to: href('audit-log'), label: 'Audit log' },
  ].filter((l) => l !== false);
  return (
    <Stack gap="lg">
      <Group justify="space-between" align="flex-end">
        <Stack gap={2}>
          <Title order={1}>Dashboard</Title>
          {profile && (
            <Text c="dimmed">
              {greeting}, {profile.first_name}
              {profile.customer ? ` — ${profile.customer.name}` : ''}
            </Text>
          )}
        </Stack>
        <Group gap="sm" data-testid="quick-links">
          {links.map((l) => (
            <Button
              key={l.to}
              component={Link}
              to={l.to}
              variant={'primary' in l ? 'filled' : 'default'}
            >
              {l.label}
            </Button>
          ))}
        </Group>
      </Group>
      {!mayView ? (
        <Text c="dimmed">Your role does not include cases.</Text>
      ) : !d ? (
        query.isPending ? (
          <Skeleton h={300} radius="lg" />
        ) : (
          <Text c="dimmed">The dashboard could not be loaded.</Text>
        )
      ) : (
        <>
          <SimpleGrid cols={{ base: 2, sm: 4 }} spacing="md">
            <Stat label="Open cases" value={d.open_cases} to={href('cases')} />
            <Stat
              label="Outstanding activities"
              value={d.outstanding_activities}
              to={href('outstanding-activities')}
            />
            <Stat
              label="Flagged cases"
              value={d.flagged_cases}
              to={href('cases', {}, { flagged: 'true' })}
            />
            <Stat label="Active flags" value={d.active_flags} to={href('flags')} />
          </SimpleGrid>
          <Paper withBorder radius="lg" p="lg">
            <Text fw={650} mb="sm">
              Cases by state
            </Text>
            <SimpleGrid cols={{ base: 2, sm: 4, lg: 7 }} spacing="sm">
              {CASE_STATES.map((s) => (
                <Anchor
                  key={s}
                  component={Link}
                  to={href('cases', {}, { state: s })}
                  underline="never"
                  c="inherit"
                  data-testid={`state-${s}`}
                >
                  <Text size="sm" c="dimmed">
                    {CASE_STATE_LABELS[s]}
                  </Text>
                  <Text fz={22} fw={700}>
                    {d.cases_by_state[s] ?? 0}
                  </Text>
                </Anchor>
              ))}
            </SimpleGrid>
          </Paper>
          <SimpleGrid cols={{ base: 1, lg: 2 }} spacing="lg">
            <Paper withBorder radius="lg" p="lg">
              <Text fw={650} mb="sm">
                Cases completed, last 12 weeks
              </Text>
              <WeeklyChart weeks={d.completed_by_week} />
            </Paper>
            <Paper withBorder radius="lg" p="lg">
              <Group justify="space-between" mb="sm">
                <Text fw={650}>Recent activity</Text>
                {can('audit.view_auditaction') && (
                  <Anchor component={Link} to={href('audit-log')} size="sm">
                    Full audit log
                  </Anchor>
                )}
              </Group>
              {d.recent_audit.length === 0 ? (
                <Text c="dimmed" size="sm">
                  Nothing recorded yet.
                </Text>
              ) : (
                <Stack gap={8} data-testid="recent-audit">
                  {d.recent_audit.map((a) => (
                    <Group key={a.id} justify="space-between" wrap="nowrap" gap="sm">
                      <Text size="sm" lineClamp={1}>
                        <strong>{auditActorName(a.actor_name, a.actor_type)}</strong>{' '}
                        {verbName(a.verb)} {a.object_repr}
                      </Text>
                      <Text size="xs" c="dimmed" style={{ whiteSpace: 'nowrap' }}>
                        {formatDate(a.created_at)}
                      </Text>
                    </Group>
                  ))}
                </Stack>
              )}
            </Paper>
          </SimpleGrid>
        </>
      )}
    </Stack>
  );
}
