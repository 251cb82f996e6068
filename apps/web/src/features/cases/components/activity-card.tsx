import { formatDate, type ResultAudience } from '@kestrel/domain';
import { Accordion, Group, Paper, SimpleGrid, Stack, Text } from '@mantine/core';
import type { CaseActivity } from '../../../api/cases';
import { StateBadge } from '../../../components/state-badge';
import { useProductProfile } from '../../../lib/session/profile';
import { ExpectedDate } from '../../expected-dates';
import { ActivityResult, hasResultPanel } from '../../results';

const pretty = (key: string) => key.replace(/_/g, ' ').replace(/^./, (c) => c.toUpperCase());
const show = (v: unknown) =>
  typeof v === 'boolean' ? (v ? 'Yes' : 'No') : Array.isArray(v) ? v.join(', ') : String(v);

/** One activity on the case detail: its state, configuration, and the result panel's place. */
export function ActivityCard({
  activity,
  caseActivityCodes = [],
}: {
  activity: CaseActivity;
  /** The activity type codes of the case's activities (the adult-first offer reads them). */
  caseActivityCodes?: readonly string[];
}) {
  const profile = useProductProfile();
  // The result panels of issue 17 (features/results): operations sessions see the ops view, and
  // whether there is a panel at all is asked for the audience the card shows it to.
  const audience: ResultAudience = profile?.is_ops ? 'ops' : 'customer';
  const withPanel = hasResultPanel(activity.activity_type, audience);
  const config = Object.entries(withPanel ? {} : (activity.config ?? {})).filter(
    ([, v]) => v !== null && v !== undefined && v !== '' && !(Array.isArray(v) && v.length === 0),
  );
  return (
    <Paper
      withBorder
      radius="md"
      p="md"
      data-testid="case-activity"
      data-kind={activity.activity_type}
    >
      <Group justify="space-between" align="flex-start">
        <Stack gap={2}>
          <Text fw={650}>{activity.activity_type_name}</Text>
          <Text size="xs" c="dimmed">
            Updated {formatDate(activity.updated_at)}
            {activity.completed_at ? ` · completed ${formatDate(activity.completed_at)}` : ''}
          </Text>
          <ExpectedDate activity={activity} />
        </Stack>
        <StateBadge state={activity.state} label={activity.state_display} />
      </Group>
      <div data-result-panel={activity.key} data-activity-id={activity.id}>
        {withPanel ? (
          <ActivityResult
            activity={activity}
            audience={audience}
            caseActivityCodes={caseActivityCodes}
          />
        ) : (
          <Text size="sm" c="dimmed" mt="sm">
            {activity.state === 'ca-complete'
              ? 'The result of this check is recorded.'
              : 'The result will show here once the check is complete.'}
          </Text>
        )}
      </div>
      {config.length > 0 && (
        <Accordion variant="separated" mt="sm" chevronPosition="left">
          <Accordion.Item value="config">
            <Accordion.Control>Activity configuration</Accordion.Control>
            <Accordion.Panel>
              <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="xs">
                {config.map(([k, v]) => (
                  <Text size="sm" key={k}>
                    <Text span c="dimmed">
                      {pretty(k)}:
                    </Text>{' '}
                    {show(v)}
                  </Text>
                ))}
              </SimpleGrid>
            </Accordion.Panel>
          </Accordion.Item>
        </Accordion>
      )}
    </Paper>
  );
}
