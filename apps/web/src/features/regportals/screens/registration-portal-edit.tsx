import { Anchor, Button, Group, Paper, Skeleton, Stack, Text, Title } from '@mantine/core';
import { useMemo } from 'react';
import { Link, useNavigate, useParams } from 'react-router';
import { KitForm } from '../../../components/form-kit';
import { href } from '../../../config/paths';
import { ProcessFrame } from '../../processes';
import { processRegPortals, type RegPortal } from '../api';
import { countText } from '../components/portal-state';
import { PublicLink } from '../components/public-link';
import { RegPortalFields, useRegPortalForm } from '../components/reg-portal-fields';

function EditForm({ portal }: { portal: RegPortal }) {
  const navigate = useNavigate();
  const back = () => navigate(href('registration-portals', { id: portal.process_id }));
  const kit = useRegPortalForm(portal.process_id, portal, back);
  return (
    <KitForm kit={kit} gap="lg" aria-label="Edit registration portal">
      <Paper withBorder radius="lg" p={{ base: 'md', sm: 'xl' }}>
        <RegPortalFields control={kit.form.control} />
      </Paper>
      <Group justify="flex-end">
        <Button variant="default" onClick={back}>
          Cancel
        </Button>
        <Button type="submit" loading={kit.saving}>
          Save portal
        </Button>
      </Group>
    </KitForm>
  );
}

/** The link people open, to copy or print as a QR code, and how many registered. */
function LinkCard({ portal }: { portal: RegPortal }) {
  return (
    <Paper withBorder radius="lg" p={{ base: 'md', sm: 'xl' }} component="section">
      <Stack gap="sm">
        <Title order={3} size="h4">
          Public link
        </Title>
        <Text size="sm" c="dimmed">
          Publish this link, or print its QR code: people open it on their phone to register.
        </Text>
        <PublicLink title={portal.title} publicLink={portal.public_link} />
        <Text size="sm">
          Registrations:{' '}
          <Anchor
            component={Link}
            to={href(
              'subject-registrations',
              {},
              { process: portal.process_id, reg_portal: portal.id },
            )}
            size="sm"
          >
            {countText(portal)}
          </Anchor>
        </Text>
      </Stack>
    </Paper>
  );
}

function EditPortal({ processId }: { processId: number }) {
  const { regPortalId = '' } = useParams();
  const resource = useMemo(() => processRegPortals(processId), [processId]);
  const query = resource.useItem(regPortalId);
  return (
    <Stack gap="md" maw={880}>
      <Title order={2} size="h3">
        {query.data ? `Edit ${query.data.title}` : 'Edit registration portal'}
      </Title>
      {query.data ? (
        <>
          <LinkCard portal={query.data} />
          <EditForm portal={query.data} />
        </>
      ) : query.isError ? (
        <Text c="dimmed">This registration portal could not be found.</Text>
      ) : (
        <Skeleton h={320} radius="lg" />
      )}
    </Stack>
  );
}

/** /processes/:id/registration-portals/:regPortalId/edit: its link and QR code, and its fields. */
export default function RegistrationPortalEdit() {
  return <ProcessFrame>{(process) => <EditPortal processId={process.id} />}</ProcessFrame>;
}
