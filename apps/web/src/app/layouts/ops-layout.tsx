import { Badge, Box, Menu } from '@mantine/core';
import { Link } from 'react-router';
import { Icon } from '../../components/icons';
import { href } from '../../config/paths';
import { AppFrame } from './app-frame';
import { CustomerPicker } from './customer-picker';
import { type NavSection, SideNav } from './nav';
import { UserMenu } from './user-menu';

const OPS_NAV: NavSection[] = [
  {
    items: [
      { route: 'ops:dashboard', label: 'Operations', icon: 'home' },
      { route: 'ops:outstanding-activities', label: 'Outstanding activities', icon: 'list' },
      { route: 'ops:escalations', label: 'Escalations', icon: 'flag' },
    ],
  },
  {
    title: 'Customers',
    items: [
      { route: 'ops:customers', label: 'Customers', icon: 'building' },
      { route: 'ops:imports', label: 'Imports', icon: 'upload' },
      { route: 'ops:trust-2-ride', label: 'Trust to ride', icon: 'bike' },
    ],
  },
  {
    title: 'Payments',
    items: [
      { route: 'ops:portal-payments', label: 'Portal payments', icon: 'card' },
      { route: 'ops:product-payments', label: 'Product payments', icon: 'card' },
    ],
  },
  {
    title: 'Developer',
    items: [
      { route: 'ops:outbox', label: 'Outbox', icon: 'file' },
      { route: 'ops:maintenance', label: 'Maintenance', icon: 'shield' },
    ],
  },
];

/** Layout for operations staff. */
export default function OpsLayout() {
  return (
    <AppFrame
      home={href('ops:dashboard')}
      nav={(close) => (
        <>
          {/* On phones the customer picker moves from the header into the menu. */}
          <Box hiddenFrom="sm" mb="md">
            <CustomerPicker />
          </Box>
          <SideNav sections={OPS_NAV} onNavigate={close} />
        </>
      )}
      header={
        <>
          <Badge variant="light" color="yellow" visibleFrom="sm">
            Operations
          </Badge>
          <Box visibleFrom="sm">
            <CustomerPicker />
          </Box>
          <UserMenu>
            <Menu.Item
              component={Link}
              to={href('dashboard')}
              leftSection={<Icon name="switch" size={16} />}
            >
              Customer view
            </Menu.Item>
          </UserMenu>
        </>
      }
    />
  );
}
