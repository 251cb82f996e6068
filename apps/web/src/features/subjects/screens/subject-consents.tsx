import { Anchor, Stack, Text, Title } from '@mantine/core';
import { Link } from 'react-router';
import { href } from '../../../config/paths';
import { ConsentsTable } from '../components/consents-table';

/** /subjects/consents: the consents every subject gave in the portal, expiring soonest first. */
export default function SubjectConsents() {
  return (
    <Stack gap="lg">
      <Anchor component={Link} to={href('subjects')} size="sm">
        ← All subjects
      </Anchor>
      <Title order={1}>Consents</Title>
      <Text c="dimmed">
        The consents your subjects gave in their case portal, and those they withdrew.
      </Text>
      <ConsentsTable />
    </Stack>
  );
}
