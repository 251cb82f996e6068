import { Button, Stack, Text, Title } from '@mantine/core';
import { Link } from 'react-router';

/** The catch-all 404, inside the public layout. */
export default function NotFoundRoute() {
  return (
    <Stack gap="md" align="flex-start" data-testid="not-found">
      <Text fw={700} c="dimmed" size="sm">
        404
      </Text>
      <Title order={1}>Page not found</Title>
      <Text>The page you asked for does not exist or has moved.</Text>
      <Button component={Link} to="/">
        Go to the start page
      </Button>
    </Stack>
  );
}
