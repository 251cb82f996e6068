import '@mantine/core/styles/Drawer.css';
import {
  formatDate,
  isoDate,
  isRenewableLicence,
  LICENCE_ACTION_RULES,
  type LicenceAction,
  licenceActionsFor,
} from '@kestrel/domain';
import {
  Alert,
  Anchor,
  Button,
  Divider,
  Drawer,
  Group,
  SimpleGrid,
  Skeleton,
  Stack,
  Text,
  Title,
} from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { Link } from 'react-router';
import { Fact } from '../../../components/fact';
import { href } from '../../../config/paths';
import { useRights } from '../../../lib/rights';
import { type Licence, licences } from '../api';
import { isHarsh, LicenceActionDialog } from './licence-action-dialog';
import { LicenceConditions } from './licence-conditions';
import { LicenceStatusBadge } from './licence-status-badge';
import { LicenceTrail } from './licence-trail';
import { RenewLicence } from './renew-licence';

/**
 * The holder's certificate on the DBS update service, checked every six months (issue 32): the
 * latest check, its answer, and new information called out for the licensing team.
 */
function UpdateServiceCycle({ licence: l }: { licence: Licence }) {
  const u = l.update_service;
  if (!u) return null;
  return (
    <Stack gap="xs" data-testid="licence-update-service">
      <Divider />
      <Title order={3} size="h4">
        DBS update service
      </Title>
      <Text size="sm" c="dimmed">
        The holder's certificate is checked every six months while the licence runs.
      </Text>
      {u.new_information && (
        <Alert color="red" variant="light" title="New information">
          The update service reports new information on the holder's certificate: review this
          licence.
        </Alert>
      )}
      <SimpleGrid cols={{ base: 1, xs: 2 }} spacing="md">
        <Fact label="Last check due">{formatDate(u.due_on)}</Fact>
        <Fact label="Checked">{u.checked_on ? formatDate(u.checked_on) : u.state_label}</Fact>
      </SimpleGrid>
      {u.certificate_status_meaning && <Text size="sm">{u.certificate_status_meaning}</Text>}
      <Anchor component={Link} to={href('case-detail', { id: u.case })} size="sm">
        Open the case of the check
      </Anchor>
    </Stack>
  );
}

function LicenceBody({ licence: l }: { licence: Licence }) {
  const { can } = useRights();
  const [action, setAction] = useState<LicenceAction | null>(null);
  const mayChange = can('lms_licences.change_licence');
  const actions = mayChange ? licenceActionsFor(l.status) : [];
  // the renewal rule, one home (the domain's): active and not yet expired
  const renewable =
    mayChange &&
    isRenewableLicence({ status: l.status, expiryDate: l.expiry_date }, isoDate(new Date()));
  return (
    <Stack gap="lg">
      <Group gap="sm">
        <LicenceStatusBadge status={l.status} />
        <Text size="sm" c="dimmed">
          {l.definition_name}
        </Text>
      </Group>
      <SimpleGrid cols={{ base: 1, xs: 2 }} spacing="md">
        <Fact label="Holder">
          <Anchor component={Link} to={href('subject', { id: l.holder })} inherit>
            {l.holder_name}
          </Anchor>
        </Fact>
        <Fact label="Date of birth">{formatDate(l.holder_dob)}</Fact>
        <Fact label="Group">
          <Anchor component={Link} to={href('licence-group', { id: l.group })} inherit>
            {l.group_name}
          </Anchor>
        </Fact>
        <Fact label="Sub-group">
          <Anchor
            component={Link}
            to={href('licence-sub-group', { id: l.group, subGroupId: l.sub_group })}
            inherit
          >
            {l.sub_group_name}
          </Anchor>
        </Fact>
        <Fact label="Issued">{formatDate(l.issue_date)}</Fact>
        <Fact label="Expires">{formatDate(l.expiry_date)}</Fact>
      </SimpleGrid>
      {(actions.length > 0 || renewable) && (
        <Group gap="sm" aria-label="Licence actions" role="group">
          {renewable && <RenewLicence licence={l} />}
          {actions.map((a) => (
            <Button
              key={a}
              // Red text on white fails AA contrast: the harsh actions are plain, their
              // confirmation red (the theme's darker filled red).
              variant={isHarsh(a) ? 'default' : 'filled'}
              onClick={() => setAction(a)}
            >
              {LICENCE_ACTION_RULES[a].label}
            </Button>
          ))}
        </Group>
      )}
      <UpdateServiceCycle licence={l} />
      <Divider />
      <Stack gap="xs">
        <Title order={3} size="h4">
          Conditions
        </Title>
        <LicenceConditions key={l.updated_at} licence={l} canEdit={mayChange} />
      </Stack>
      <Divider />
      <Stack gap="sm" data-testid="licence-trail">
        <Title order={3} size="h4">
          Trail
        </Title>
        <LicenceTrail events={l.events} />
      </Stack>
      <LicenceActionDialog licence={l} action={action} onClose={() => setAction(null)} />
    </Stack>
  );
}

/**
 * One licence beside the list (the spec has no licence route: `?licence={id}` on /licences):
 * its holder, dates, conditions, trail, and the actions its status allows.
 */
export function LicencePanel({ id, onClose }: { id: string | null; onClose: () => void }) {
  const phone = useMediaQuery('(max-width: 47.99em)');
  const query = useQuery({ ...licences.itemOptions(id ?? ''), enabled: id !== null });
  const licence = query.data;
  return (
    <Drawer
      opened={id !== null}
      onClose={onClose}
      position="right"
      size={phone ? '100%' : 'lg'}
      title={licence ? `Licence ${licence.number}` : 'Licence'}
      styles={{
        title: {
          fontSize: 'var(--mantine-h3-font-size)',
          fontWeight: 700,
          overflowWrap: 'anywhere',
        },
      }}
      closeButtonProps={{ 'aria-label': 'Close the licence' }}
    >
      {licence ? (
        <LicenceBody licence={licence} />
      ) : query.isError ? (
        <Text c="dimmed">This licence could not be found.</Text>
      ) : (
        <Skeleton h={320} radius="lg" />
      )}
    </Drawer>
  );
}
