import { Button, Group, Paper, Stack, Title } from '@mantine/core';
import { useNavigate } from 'react-router';
import { KitForm } from '../../../components/form-kit';
import { href } from '../../../config/paths';
import { ProcessFrame } from '../../processes';
import { RegPortalFields, useRegPortalForm } from '../components/reg-portal-fields';

function AddPortal({ processId }: { processId: number }) {
  const navigate = useNavigate();
  const back = () => navigate(href('registration-portals', { id: processId }));
  const kit = useRegPortalForm(processId, undefined, (saved) =>
    navigate(href('registration-portal-edit', { id: processId, regPortalId: saved.id })),
  );
  return (
    <Stack gap="md" maw={880}>
      <Title order={2} size="h3">
        Add registration portal
      </Title>
      <KitForm kit={kit} gap="lg" aria-label="Add registration portal">
        <Paper withBorder radius="lg" p={{ base: 'md', sm: 'xl' }}>
          <RegPortalFields control={kit.form.control} />
        </Paper>
        <Group justify="flex-end">
          <Button variant="default" onClick={back}>
            Cancel
          </Button>
          <Button type="submit" loading={kit.saving}>
            Add registration portal
          </Button>
        </Group>
      </KitForm>
    </Stack>
  );
}

/**
 * /processes/:id/registration-portals/add: a new portal; once added its edit page shows its
 * public link and QR code.
 */
export default function RegistrationPortalAdd() {
  return <ProcessFrame>{(process) => <AddPortal processId={process.id} />}</ProcessFrame>;
}
