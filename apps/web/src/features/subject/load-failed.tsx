import { Button, Stack, Text } from '@mantine/core';

/**
 * A subject screen whose data could not be loaded: what happened and a retry button sized for a
 * thumb (44 px).
 */
export function LoadFailed({ what, onRetry }: { what: string; onRetry: () => void }) {
  return (
    <Stack
      align="center"
      gap={6}
      p="xl"
      ta="center"
      role="alert"
      data-testid="list-state"
      data-state="failed"
    >
      <Text fw={600}>The {what} could not be loaded</Text>
      <Text size="sm" c="dimmed" maw={440}>
        Something went wrong on our side or with the connection. Your data is safe.
      </Text>
      <Button variant="default" size="md" mih={44} mt={6} onClick={onRetry}>
        Try again
      </Button>
    </Stack>
  );
}
