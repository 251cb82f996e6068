import { Button, List, Stack, Text } from '@mantine/core';
import { Link } from 'react-router';
import { href } from '../../../config/paths';
import type { PortalSectionProps } from '../section-contract';
import { SectionShell } from '../section-shell';

/** Done: the answers are in, and what happens next. */
export default function DoneSection({ caseId, portal }: PortalSectionProps) {
  const customer = portal.portal.customer.name;
  return (
    <SectionShell title="Thank you, your answers have been submitted" form={false}>
      <Stack gap="md" data-testid="portal-done">
        <Text fw={600}>What happens next</Text>
        <List spacing="xs">
          <List.Item>We check the details you have given and start your checks.</List.Item>
          <List.Item>
            If we need anything else from you, we will email you. You do not need to do anything
            now.
          </List.Item>
          <List.Item>When the checks are finished, {customer} will be told the outcome.</List.Item>
        </List>
        <Text>You can follow your checks at any time on your case page.</Text>
        <Button
          component={Link}
          to={href('subject-case-detail', { id: caseId })}
          size="md"
          h={44}
          w={{ base: '100%', xs: 'auto' }}
          style={{ alignSelf: 'flex-start' }}
        >
          Go to your case page
        </Button>
      </Stack>
    </SectionShell>
  );
}
