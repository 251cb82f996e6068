import { Badge, NavLink, Stack, Text } from '@mantine/core';
import { Link, useLocation } from 'react-router';
import { Icon, type IconName } from '../../components/icons';
import { href, type PlainRouteName } from '../../config/paths';
import { useSession } from '../../lib/session/session-store';
import { canOpen } from '../navigation';
import { routeByName } from '../route-table';

export interface NavItem {
  route: PlainRouteName;
  label: string;
  icon: IconName;
  badge?: number;
}
export interface NavSection {
  title?: string;
  items: NavItem[];
}

/** Side navigation listing only the routes this session may open. */
export function SideNav({
  sections,
  onNavigate,
}: {
  sections: NavSection[];
  onNavigate?: () => void;
}) {
  const session = useSession();
  const { pathname } = useLocation();
  return (
    <Stack gap="lg" component="nav" aria-label="Main">
      {sections.map((section) => {
        const items = section.items.filter((item) => {
          const route = routeByName(item.route);
          return route !== undefined && canOpen(route, session);
        });
        if (items.length === 0) return null;
        return (
          <Stack gap={2} key={section.title ?? 'main'}>
            {section.title && (
              <Text
                size="xs"
                fw={700}
                c="dimmed"
                tt="uppercase"
                px="sm"
                mb={4}
                style={{ letterSpacing: '0.06em' }}
              >
                {section.title}
              </Text>
            )}
            {items.map((item) => {
              const to = href(item.route);
              const active = pathname === to || pathname.startsWith(`${to}/`);
              return (
                <NavLink
                  key={item.route}
                  component={Link}
                  to={to}
                  label={item.label}
                  active={active}
                  aria-current={active ? 'page' : undefined}
                  onClick={onNavigate}
                  leftSection={<Icon name={item.icon} size={18} />}
                  rightSection={
                    item.badge ? (
                      <Badge
                        size="sm"
                        color="red"
                        variant="filled"
                        aria-label={`${item.badge} active`}
                      >
                        {item.badge}
                      </Badge>
                    ) : undefined
                  }
                  style={{ borderRadius: 8 }}
                  py={7}
                  fw={500}
                />
              );
            })}
          </Stack>
        );
      })}
    </Stack>
  );
}
