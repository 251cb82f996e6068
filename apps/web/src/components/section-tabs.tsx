import { Button, Group } from '@mantine/core';
import { Link, useLocation } from 'react-router';

/**
 * The tabs across the pages of one item (a process's, a segment's sections): links in a named
 * navigation, the current page marked (aria-current) and lit.
 */
export function SectionTabs({
  label,
  tabs,
}: {
  /** The navigation's name, e.g. 'Segment sections'. */
  label: string;
  tabs: readonly { to: string; label: string }[];
}) {
  const { pathname } = useLocation();
  return (
    <Group gap={4} component="nav" aria-label={label} wrap="wrap">
      {tabs.map((t) => {
        const active = pathname === t.to;
        return (
          <Button
            key={t.to}
            component={Link}
            to={t.to}
            variant={active ? 'light' : 'subtle'}
            color={active ? undefined : 'gray'}
            aria-current={active ? 'page' : undefined}
            size="sm"
          >
            {t.label}
          </Button>
        );
      })}
    </Group>
  );
}
