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
  const current = activeTab(pathname, tabs);
  return (
    <Group gap={4} component="nav" aria-label={label} wrap="wrap">
      {tabs.map((t) => {
        const active = t.to === current;
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

/**
 * The tab a path belongs to: the one it equals, else the longest one it lies under
 * ('/processes/1/cycles/3/edit' is in 'Cycles', not in the overview '/processes/1').
 */
export function activeTab(pathname: string, tabs: readonly { to: string }[]): string | null {
  let best: string | null = null;
  for (const { to } of tabs) {
    const under = pathname === to || pathname.startsWith(to.endsWith('/') ? to : `${to}/`);
    if (under && (best === null || to.length > best.length)) best = to;
  }
  return best;
}
