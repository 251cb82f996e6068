import { Button, Group, Paper, Skeleton, Stack, Text, Title } from '@mantine/core';
import { useMemo } from 'react';
import { useParams } from 'react-router';
import { KitForm, useKitForm } from '../../../components/form-kit';
import { useRights } from '../../../lib/rights';
import { type Definition, definitionPortals, type Portal } from '../api';
import { ApplicationsSection } from '../components/applications-section';
import { DefinitionFrame } from '../components/definition-frame';
import {
  PortalFields,
  type PortalSaved,
  type PortalValues,
  portalSchema,
  portalValues,
} from '../components/portal-fields';
import { PublicLink } from '../components/public-link';

function EditForm({ definition, portal }: { definition: Definition; portal: Portal }) {
  const save = definitionPortals(definition.id).useSave({ partial: true });
  const kit = useKitForm<PortalValues, PortalSaved, Portal>({
    schema: portalSchema,
    defaultValues: portalValues(portal),
    submit: (values) => save.mutateAsync({ id: portal.id, values }),
    onSaved: (saved) => kit.form.reset(portalValues(saved)),
  });
  return (
    <KitForm kit={kit} gap="lg" aria-label="Application portal">
      <Paper withBorder radius="lg" p={{ base: 'md', sm: 'xl' }}>
        <PortalFields control={kit.form.control} />
      </Paper>
      <Group justify="flex-end">
        <Button
          variant="default"
          disabled={!kit.form.formState.isDirty}
          onClick={() => kit.form.reset(portalValues(portal))}
        >
          Discard changes
        </Button>
        <Button type="submit" loading={kit.saving}>
          Save portal
        </Button>
      </Group>
    </KitForm>
  );
}

function PortalPage({ definition }: { definition: Definition }) {
  const { appId = '' } = useParams();
  const { can } = useRights();
  const resource = useMemo(() => definitionPortals(definition.id), [definition.id]);
  const query = resource.useItem(appId);
  const portal = query.data;
  if (!portal)
    return query.isError ? (
      <Text c="dimmed">This application portal could not be found.</Text>
    ) : (
      <Skeleton h={320} radius="lg" />
    );
  return (
    <Stack gap="xl">
      <Stack gap="md" maw={880}>
        <Title order={2} size="h3">
          {portal.title}
        </Title>
        <PublicLink portalId={portal.id} isOpen={portal.is_open} />
        {can('lms_definitions.change_definition') && (
          <EditForm key={portal.updated_at} definition={definition} portal={portal} />
        )}
      </Stack>
      {can('lms_licences.view_licence') && <ApplicationsSection portalId={portal.id} />}
    </Stack>
  );
}

/**
 * /definitions/:id/application_portals/:appId: a portal's public link, its fields, and the
 * applications made on it with their decisions.
 */
export default function DefinitionApplicationPortal() {
  return <DefinitionFrame>{(d) => <PortalPage definition={d} />}</DefinitionFrame>;
}
