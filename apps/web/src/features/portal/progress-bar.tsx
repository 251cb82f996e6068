import { Group, Progress, Stack, Text } from '@mantine/core';

/** How far the person is: 'Step 3 of 8' and the share of sections done. */
export function PortalProgressBar({
  step,
  total,
  percent,
}: {
  /** The 1-based position of the section on screen. */
  step: number;
  total: number;
  percent: number;
}) {
  return (
    <Stack gap={6} data-testid="portal-progress">
      <Group justify="space-between" gap="xs">
        <Text size="sm" fw={600}>
          Step {step} of {total}
        </Text>
        <Text size="sm" c="dimmed">
          {percent}% complete
        </Text>
      </Group>
      <Progress
        value={percent}
        size="lg"
        radius="xl"
        aria-label={`Progress: ${percent}% complete`}
      />
    </Stack>
  );
}
