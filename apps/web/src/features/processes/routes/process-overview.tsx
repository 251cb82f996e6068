import { formatDate } from '@kestrel/domain';
import { Button, Group, Paper, SimpleGrid, Stack, Text } from '@mantine/core';
import { Link } from 'react-router';
import { href } from '../../../config/paths';
import { ProcessFrame } from '../components/process-frame';
import { activityName } from '../components/requirements-editor';

function Fact({ label, value }: { label: string; value: string | number }) {
  return (
    <Stack gap={2}>
      <Text size="xs" c="dimmed" tt="uppercase" fw={700}>
        {label}
      </Text>
      <Text>{value}</Text>
    </Stack>
  );
}

export default function ProcessOverview() {
  return (
    <ProcessFrame>
      {(p) => (
        <Stack gap="lg">
          <Paper withBorder radius="lg" p="xl">
            <SimpleGrid cols={{ base: 1, sm: 3 }} spacing="lg">
              <Fact label="Cases" value={p.case_count ?? 0} />
              <Fact label="Checks" value={p.requirements.length} />
              <Fact label="Created" value={formatDate(p.created_at)} />
            </SimpleGrid>
            {p.description && (
              <Text mt="lg" style={{ whiteSpace: 'pre-wrap' }}>
                {p.description}
              </Text>
            )}
          </Paper>
          <Paper withBorder radius="lg" p="xl">
            <Text fw={650} mb="sm">
              Checks run by each case
            </Text>
            {p.requirements.length === 0 ? (
              <Text c="dimmed">No checks yet.</Text>
            ) : (
              <Stack gap={6} component="ul" m={0} pl="md">
                {p.requirements.map((r) => (
                  <Text component="li" key={r.activity_type}>
                    {activityName(r.activity_type, r.activity_type_name)}
                  </Text>
                ))}
              </Stack>
            )}
          </Paper>
          <Group>
            <Button component={Link} to={href('cases', {}, { process: p.id })} variant="default">
              Cases under this process
            </Button>
          </Group>
        </Stack>
      )}
    </ProcessFrame>
  );
}
