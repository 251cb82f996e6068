import { formatDate, formatPhone } from '@kestrel/domain';
import { Anchor, Button, Group, Paper, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { Link } from 'react-router';
import { countLabel } from '../../../components/count-label';
import { Email } from '../../../components/email';
import { Fact } from '../../../components/fact';
import { href } from '../../../config/paths';
import type { Segment } from '../api';
import { DeleteSegment } from '../components/delete-segment';
import { addressLines } from '../components/segment-fields';
import { SegmentFrame } from '../components/segment-frame';
import { useSegmentRights } from '../segment-rights';

function Overview({ segment: s }: { segment: Segment }) {
  const rights = useSegmentRights();
  const address = addressLines(s);
  return (
    <Stack gap="lg">
      <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="lg">
        <Paper withBorder radius="lg" p="xl">
          <Stack gap="md">
            <Title order={2} size="h4">
              Segment
            </Title>
            <Fact label="Employer name">{s.employer_name}</Fact>
            <Fact label="Address">
              {address.length > 0 &&
                address.map((line) => (
                  <Text key={line} component="span" display="block">
                    {line}
                  </Text>
                ))}
            </Fact>
            <Fact label="Created">{formatDate(s.created_at)}</Fact>
          </Stack>
        </Paper>
        <Paper withBorder radius="lg" p="xl">
          <Stack gap="md">
            <Title order={2} size="h4">
              Contact
            </Title>
            <Fact label="Name">{s.contact_name}</Fact>
            <Fact label="Email">
              {s.contact_email && (
                <Anchor href={`mailto:${s.contact_email}`} inherit>
                  <Email address={s.contact_email} />
                </Anchor>
              )}
            </Fact>
            <Fact label="Phone">{s.contact_phone && formatPhone(s.contact_phone)}</Fact>
          </Stack>
        </Paper>
      </SimpleGrid>
      <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="lg">
        <Paper withBorder radius="lg" p="xl">
          <Stack gap="sm" align="flex-start">
            <Fact label="Users">{countLabel({ count: s.user_count }, 'user', 'users')}</Fact>
            <Text size="sm" c="dimmed">
              Users of this segment who are not administrators see only its cases.
            </Text>
            <Button component={Link} to={href('segment-users', { id: s.id })} variant="default">
              {rights.changeMembers ? 'Add or remove users' : 'See the users'}
            </Button>
          </Stack>
        </Paper>
        <Paper withBorder radius="lg" p="xl">
          <Stack gap="sm" align="flex-start">
            <Fact label="Processes">
              {countLabel({ count: s.process_count }, 'process', 'processes')}
            </Fact>
            <Text size="sm" c="dimmed">
              The cases of these processes belong to this segment.
            </Text>
            <Button component={Link} to={href('segment-processes', { id: s.id })} variant="default">
              {rights.changeMembers ? 'Assign or unassign processes' : 'See the processes'}
            </Button>
          </Stack>
        </Paper>
      </SimpleGrid>
      {(rights.editDetails || rights.remove) && (
        <Group>
          {rights.editDetails && (
            <Button component={Link} to={href('segment-details', { id: s.id })}>
              Edit details
            </Button>
          )}
          {rights.remove && <DeleteSegment segment={s} />}
        </Group>
      )}
    </Stack>
  );
}

/** /segments/{id}: the segment at a glance, with its users and processes counted. */
export default function SegmentOverview() {
  return <SegmentFrame>{(s) => <Overview segment={s} />}</SegmentFrame>;
}
