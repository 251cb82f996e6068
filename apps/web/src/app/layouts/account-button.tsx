import { Avatar, Group, Text, UnstyledButton } from '@mantine/core';
import type { ComponentPropsWithRef } from 'react';
import { displayName, initials } from '../../lib/session/profile';
import type { Profile } from '../../lib/session/types';

/** The avatar button that opens the account menu (its name starts with what it shows). */
export function AccountButton({
  profile,
  ...props
}: { profile: Profile } & ComponentPropsWithRef<'button'>) {
  const name = displayName(profile);
  // The name starts with what the button shows, the initials and the name (WCAG 2.5.3).
  const label = name ? `${initials(profile)} ${name}, account menu` : 'Account menu';
  return (
    <UnstyledButton aria-label={label} data-testid="user-menu" {...props}>
      <Group gap={8} wrap="nowrap">
        <Avatar color="brand" radius="xl" size={34}>
          {initials(profile)}
        </Avatar>{' '}
        <Text size="sm" fw={600} visibleFrom="sm">
          {name}
        </Text>
      </Group>
    </UnstyledButton>
  );
}
