import { Paper, Stack, Text, ThemeIcon, Title } from '@mantine/core';
import { useMatches } from 'react-router';
import { Icon } from './icons';

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
      <Paper withBorder radius="lg" p={{ base: 'lg', sm: 48 }} data-testid="coming-soon">
        <Stack gap="sm" align="center" ta="center" maw={420} mx="auto">
          <ThemeIcon size={52} radius="xl" variant="light">
            <Icon name="layers" size={26} />
          </ThemeIcon>
          <Text fw={650} size="lg">
            Coming soon
          </Text>
          <Text c="dimmed">
            We are putting the finishing touches to {title.toLowerCase()}. It will appear here
            shortly.
          </Text>
        </Stack>
      </Paper>
    </Stack>
  );
}
