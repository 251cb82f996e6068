import { Anchor, Badge, Button, Group, Skeleton, Stack, Text, Title } from '@mantine/core';
import type { ReactNode } from 'react';
import { Link, useLocation, useParams } from 'react-router';
import { activeTab } from '../../../components/section-tabs';
import { href } from '../../../config/paths';
import { useRights } from '../../../lib/rights';
import { type Definition, definitions } from '../api';

const TABS = [
  { route: 'definition', label: 'Overview' },
  {
    route: 'definition-details',
    label: 'Details',
    permission: 'lms_definitions.change_definition',
  },
  { route: 'definition-requirements', label: 'Requirements' },
  { route: 'definition-application-portals', label: 'Application portals' },
] as const;

/** Published or draft, as a badge. */
export function PublishedBadge({ published }: { published: boolean }) {
  return (
    <Badge variant="light" color={published ? 'teal' : 'gray'} style={{ minWidth: 'max-content' }}>
      {published ? 'Published' : 'Draft'}
    </Badge>
  );
}

/**
 * The section tabs (as components/section-tabs draws them): a portal's pages
 * ('/definitions/1/application_portals/2', the spec's underscore) belong to the 'Application
 * portals' tab ('/definitions/1/application-portals'), not to the overview.
 */
function DefinitionTabs({ tabs }: { tabs: readonly { to: string; label: string }[] }) {
  const { pathname } = useLocation();
  const current = activeTab(pathname.replace('/application_portals', '/application-portals'), tabs);
  return (
    <Group gap={4} component="nav" aria-label="Licence definition sections" wrap="wrap">
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
 * The frame of one licence definition's pages: where it sits (group › sub-group), its name,
 * the section tabs, and the page body once the definition loads.
 */
export function DefinitionFrame({ children }: { children: (definition: Definition) => ReactNode }) {
  const { id = '' } = useParams();
  const { can } = useRights();
  const query = definitions.useItem(id);
  const definition = query.data;
  return (
    <Stack gap="lg">
      <Anchor component={Link} to={href('definitions')} size="sm">
        ← All licence definitions
      </Anchor>
      <Stack gap={4}>
        {definition && (
          <Text size="sm" c="dimmed">
            {definition.group_name} › {definition.sub_group_name}
          </Text>
        )}
        <Title order={1}>
          {definition ? definition.name : query.isError ? 'Licence definition' : '…'}
        </Title>
        {definition && (
          <Group gap="xs">
            <PublishedBadge published={definition.is_published} />
            <Text size="sm" c="dimmed">
              {definition.duration_text} · {definition.fee_display}
            </Text>
          </Group>
        )}
      </Stack>
      <DefinitionTabs
        tabs={TABS.filter((t) => !('permission' in t) || can(t.permission)).map((t) => ({
          to: href(t.route, { id }),
          label: t.label,
        }))}
      />
      {definition ? (
        children(definition)
      ) : query.isError ? (
        <Text c="dimmed">This licence definition could not be found.</Text>
      ) : (
        <Skeleton h={200} radius="lg" />
      )}
    </Stack>
  );
}
