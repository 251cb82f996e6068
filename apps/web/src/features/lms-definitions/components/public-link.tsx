import { Anchor, Group, Paper, Stack, Text } from '@mantine/core';
import { CopyButton } from '../../../components/copy-button';
import { href } from '../../../config/paths';

/** The address of a portal's public page, as applicants are given it. */
export function publicPortalUrl(portalId: number): string {
  return `${window.location.origin}${href('application-portal', { id: portalId })}`;
}

/** A portal's public link, to open or copy (to put on the council's website or in a letter). */
export function PublicLink({ portalId, isOpen }: { portalId: number; isOpen: boolean }) {
  const url = publicPortalUrl(portalId);
  return (
    <Paper withBorder radius="lg" p={{ base: 'md', sm: 'lg' }}>
      <Stack gap={6}>
        <Text fw={650}>Public link</Text>
        <Text size="sm" c="dimmed">
          {isOpen
            ? 'Give applicants this link, or put it on the council’s website.'
            : 'The portal is closed: its page says so and nobody can apply.'}
        </Text>
        <Group gap="xs" wrap="nowrap">
          <Anchor
            href={url}
            target="_blank"
            rel="noreferrer"
            data-testid="portal-public-link"
            style={{ overflowWrap: 'anywhere' }}
          >
            {url}
          </Anchor>
          <CopyButton value={url} label="Copy the public link" />
        </Group>
      </Stack>
    </Paper>
  );
}
