import { Badge, Button, Group, Menu, Paper, Text } from '@mantine/core';
import { Link, useNavigate } from 'react-router';
import { Icon } from '../../components/icons';
import { href } from '../../config/paths';
import { useProductProfile } from '../../lib/session/profile';
import { endOpsSession } from '../../lib/session/session-actions';
import { useSession } from '../../lib/session/session-store';
import { AppFrame } from './app-frame';
import { type NavSection, SideNav } from './nav';
import { UserMenu } from './user-menu';

function productNav(activeFlags: number): NavSection[] {
  return [
    {
      items: [
        { route: 'dashboard', label: 'Dashboard', icon: 'home' },
        { route: 'flags', label: 'Flags', icon: 'flag', badge: activeFlags },
      ],
    },
    {
      title: 'Checks',
      items: [
        { route: 'cases', label: 'Cases', icon: 'folder' },
        { route: 'subjects', label: 'Subjects', icon: 'users' },
        { route: 'outstanding-activities', label: 'Outstanding activities', icon: 'list' },
        { route: 'case-activities', label: 'Case activities', icon: 'check' },
        { route: 'subscriptions', label: 'Subscriptions', icon: 'switch' },
        { route: 'expiry-calendar', label: 'Expiry calendar', icon: 'flag' },
      ],
    },
    {
      title: 'Set-up',
      items: [
        { route: 'processes', label: 'Processes', icon: 'process' },
        { route: 'segments', label: 'Segments', icon: 'layers' },
        { route: 'definitions', label: 'Licence definitions', icon: 'book' },
        { route: 'licence-groups', label: 'Licence groups', icon: 'layers' },
        { route: 'licences', label: 'Licences', icon: 'file' },
        { route: 'users', label: 'Users', icon: 'user' },
      ],
    },
    {
      title: 'Account',
      items: [
        { route: 'payments', label: 'Payments', icon: 'card' },
        { route: 'payment-settings', label: 'Payment settings', icon: 'card-settings' },
        { route: 'audit-log', label: 'Audit log', icon: 'shield' },
        { route: 'customer-account', label: 'Organisation', icon: 'building' },
        { route: 'support', label: 'Support', icon: 'help' },
      ],
    },
  ];
}

/** Ops staff inside a customer: who they act for, and the way out. */
function OpsSessionStrip() {
  const profile = useProductProfile();
  const navigate = useNavigate();
  if (!profile?.is_ops) return null;
  const end = async () => {
    if (await endOpsSession())
      navigate(href('bootstrap', {}, { next: href('ops:outstanding-activities') }));
  };
  return (
    <Paper radius={0} px="md" py={8} bg="var(--mantine-color-yellow-light)" data-testid="ops-strip">
      <Group justify="space-between" gap="xs">
        <Text size="sm" fw={600}>
          Operations session{profile.customer ? `: acting for ${profile.customer.name}` : ''}
        </Text>
        <Group gap="xs">
          <Button
            size="compact-sm"
            variant="default"
            component={Link}
            to={href('ops:outstanding-activities')}
          >
            Operations
          </Button>
          {profile.customer && (
            <Button size="compact-sm" variant="filled" color="dark" onClick={end}>
              End customer session
            </Button>
          )}
        </Group>
      </Group>
    </Paper>
  );
}

/** Layout for customer staff (and ops staff acting for a customer). */
export default function ProductLayout() {
  // The active flag count comes with every session check, so the badge stays current.
  const { activeFlags: flags } = useSession();
  const profile = useProductProfile();
  // The organisation requires two-factor sign-in and this user has none yet (issue 30): every
  // other screen sends them back to set it up, so the frame offers no way elsewhere (no side
  // navigation; the account menu keeps setting it up and signing out).
  const confined = profile?.totp_setup_required === true;
  return (
    <AppFrame
      home={href(confined ? 'profile-totp' : 'dashboard')}
      accent={<OpsSessionStrip />}
      nav={
        confined
          ? undefined
          : (close) => <SideNav sections={productNav(flags)} onNavigate={close} />
      }
      header={
        <>
          {profile?.customer && (
            <Group gap={6} visibleFrom="sm">
              <Text size="sm" c="dimmed">
                {profile.customer.name}
              </Text>
              {profile.customer.demo_mode && (
                <Badge variant="light" color="grape" size="sm">
                  Demo
                </Badge>
              )}
            </Group>
          )}
          <UserMenu>
            {profile?.is_ops && (
              <Menu.Item
                component={Link}
                to={href('ops:outstanding-activities')}
                leftSection={<Icon name="switch" size={16} />}
              >
                Operations
              </Menu.Item>
            )}
          </UserMenu>
        </>
      }
    />
  );
}
