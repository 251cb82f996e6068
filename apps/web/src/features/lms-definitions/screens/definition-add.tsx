import { Button, Group, Paper, Stack, Text, Title } from '@mantine/core';
import { useNavigate, useSearchParams } from 'react-router';
import { KitForm, useKitForm } from '../../../components/form-kit';
import { href } from '../../../config/paths';
import { type Definition, definitions } from '../api';
import { DefinitionFields, SubGroupField } from '../components/definition-fields';
import {
  type DefinitionAdd as DefinitionAddOut,
  type DefinitionAddValues,
  definitionAddSchema,
  emptyDefinition,
} from '../components/definition-schema';
import { RequirementFields } from '../components/requirement-fields';

/**
 * /definitions/add: a new licence definition under one of the council's sub-groups (?sub_group=
 * preselects it), with its details and requirements; its overview opens once added.
 */
export default function DefinitionAdd() {
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const preset = Number(params.get('sub_group'));
  const save = definitions.useSave();
  const kit = useKitForm<DefinitionAddValues, DefinitionAddOut, Definition>({
    schema: definitionAddSchema,
    defaultValues:
      Number.isInteger(preset) && preset > 0
        ? { ...emptyDefinition, sub_group: preset }
        : emptyDefinition,
    submit: (values) => save.mutateAsync({ values }),
    onSaved: (d) => navigate(href('definition', { id: d.id })),
  });
  const back = () => navigate(href('definitions'));
  return (
    <Stack gap="lg" maw={880}>
      <Title order={1}>Add licence definition</Title>
      <KitForm kit={kit} gap="lg" aria-label="Add licence definition">
        <Paper withBorder radius="lg" p={{ base: 'md', sm: 'xl' }}>
          <Stack gap="md">
            <SubGroupField control={kit.form.control} name="sub_group" />
            <DefinitionFields control={kit.form.control} />
          </Stack>
        </Paper>
        <Paper withBorder radius="lg" p={{ base: 'md', sm: 'xl' }}>
          <Stack gap="md">
            <Stack gap={2}>
              <Title order={2} size="h4">
                Requirements
              </Title>
              <Text size="sm" c="dimmed">
                What an applicant must pass, provide and confirm. You can change them later.
              </Text>
            </Stack>
            <RequirementFields control={kit.form.control} />
          </Stack>
        </Paper>
        <Group justify="flex-end">
          <Button variant="default" onClick={back}>
            Cancel
          </Button>
          <Button type="submit" loading={kit.saving}>
            Add definition
          </Button>
        </Group>
      </KitForm>
    </Stack>
  );
}
