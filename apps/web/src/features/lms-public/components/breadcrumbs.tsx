import { Anchor, Box, Text } from '@mantine/core';
import { Link } from 'react-router';
import classes from './lms-public.module.css';

export interface Crumb {
  label: string;
  /** Where it leads; the last crumb (this page) has none. */
  to?: string;
}

/**
 * GOV.UK-style breadcrumbs: the way back up, this page last and not a link; on a phone, only the
 * link one level up.
 */
export function Breadcrumbs({ crumbs }: { crumbs: readonly Crumb[] }) {
  // On a phone only the way one level up shows (GOV.UK's collapsed breadcrumbs).
  const parent = crumbs.findLastIndex((c) => c.to !== undefined);
  return (
    <Box component="nav" aria-label="Breadcrumb" data-testid="breadcrumbs">
      <ol className={classes.crumbs}>
        {crumbs.map((c, i) => (
          <li key={`${c.label}:${c.to ?? ''}`} data-parent={c.to && i === parent ? '' : undefined}>
            {c.to ? (
              <Anchor component={Link} to={c.to} size="sm" className={classes.crumbLink}>
                {c.label}
              </Anchor>
            ) : (
              <Text component="span" size="sm" c="dimmed" aria-current="page">
                {c.label}
              </Text>
            )}
          </li>
        ))}
      </ol>
    </Box>
  );
}
