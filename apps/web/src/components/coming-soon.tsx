import { Badge, Paper, Stack, Text, Title } from '@mantine/core';
import { useMatches } from 'react-router';

/** Placeholder for screens a later issue fills; the route and its guard already work. */
export default function ComingSoon() {
  const matches = useMatches();
  const handle = matches.at(-1)?.handle;
  const title =
    typeof handle === 'object' &&
    handle !== null &&
    'title' in handle &&
    typeof handle.title === 'string'
      ? handle.title
      : 'This page';
  return (
    <Stack gap="lg">
      <Title order={1}>{title}</Title>
      <Paper withBorder radius="lg" p="xl" data-testid="coming-soon">
        <Stack gap="xs" align="flex-start">
          <Badge variant="light">Coming</Badge>
          <Text>This part of the service is coming soon.</Text>
        </Stack>
      </Paper>
    </Stack>
  );
}
