import { Button, Group, Paper, Stack, Title } from '@mantine/core';
import { useNavigate } from 'react-router';
import { KitForm, useKitForm } from '../../../components/form-kit';
import { href } from '../../../config/paths';
import { type Definition, definitionPortals, type Portal } from '../api';
import { DefinitionFrame } from '../components/definition-frame';
import {
  newPortalValues,
  PortalFields,
  type PortalSaved,
  type PortalValues,
  portalSchema,
} from '../components/portal-fields';

function AddPortal({ definition }: { definition: Definition }) {
  const navigate = useNavigate();
  const save = definitionPortals(definition.id).useSave();
  const kit = useKitForm<PortalValues, PortalSaved, Portal>({
    schema: portalSchema,
    defaultValues: newPortalValues(definition),
    submit: (values) => save.mutateAsync({ values }),
    onSaved: (p) =>
      navigate(href('definition-application-portal', { id: definition.id, appId: p.id })),
  });
  return (
    <Stack gap="md" maw={880}>
      <Title order={2} size="h3">
        Add application portal
      </Title>
      <KitForm kit={kit} gap="lg" aria-label="Add application portal">
        <Paper withBorder radius="lg" p={{ base: 'md', sm: 'xl' }}>
          <PortalFields control={kit.form.control} />
        </Paper>
        <Group justify="flex-end">
          <Button
            variant="default"
            onClick={() => navigate(href('definition-application-portals', { id: definition.id }))}
          >
            Cancel
          </Button>
          <Button type="submit" loading={kit.saving}>
            Add portal
          </Button>
        </Group>
      </KitForm>
    </Stack>
  );
}

/** /definitions/:id/application_portals/add: a new portal; its page (with its link) opens once added. */
export default function DefinitionApplicationPortalAdd() {
  return <DefinitionFrame>{(d) => <AddPortal definition={d} />}</DefinitionFrame>;
}
