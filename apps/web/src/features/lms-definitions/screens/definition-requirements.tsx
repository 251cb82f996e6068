import { Alert, Button, Group, Paper, Stack, Text } from '@mantine/core';
import { useEffect, useRef } from 'react';
import { KitForm, useKitForm } from '../../../components/form-kit';
import { useRights } from '../../../lib/rights';
import { type Definition, definitions } from '../api';
import { CheckSettingsList } from '../components/check-settings';
import { DefinitionFrame } from '../components/definition-frame';
import {
  type DefinitionRequirements,
  type DefinitionRequirementsValues,
  definitionRequirementsSchema,
  definitionRequirementsValues,
} from '../components/definition-schema';
import { RequirementFields } from '../components/requirement-fields';
import { RequirementSummary } from '../components/requirement-summary';

function RequirementsForm({ definition }: { definition: Definition }) {
  const save = definitions.useSave({ partial: true });
  // the checks' settings are edited apart (CheckSettingsList): a save here keeps the latest
  const latest = useRef(definition);
  latest.current = definition;
  const kit = useKitForm<DefinitionRequirementsValues, DefinitionRequirements, Definition>({
    schema: definitionRequirementsSchema,
    defaultValues: definitionRequirementsValues(definition),
    submit: (values) =>
      save.mutateAsync({
        id: definition.id,
        values: {
          ...values,
          requirements: values.requirements.map((r) => ({
            ...r,
            config:
              latest.current.requirements.find((q) => q.activity_type === r.activity_type)
                ?.config ?? r.config,
          })),
        },
      }),
    onSaved: (saved) => kit.form.reset(definitionRequirementsValues(saved)),
  });
  const { isDirty } = kit.form.formState;
  const { reset } = kit.form;
  useEffect(() => {
    if (!isDirty) reset(definitionRequirementsValues(definition));
  }, [definition, isDirty, reset]);
  return (
    <KitForm kit={kit} gap="lg" aria-label="Licence requirements">
      <Text size="sm" c="dimmed">
        Changes apply to new applications; applications already made keep their checks.
      </Text>
      <Paper withBorder radius="lg" p={{ base: 'md', sm: 'xl' }}>
        <RequirementFields control={kit.form.control} />
      </Paper>
      <Group justify="flex-end">
        <Button
          variant="default"
          disabled={!kit.form.formState.isDirty}
          onClick={() => kit.form.reset(definitionRequirementsValues(definition))}
        >
          Discard changes
        </Button>
        <Button type="submit" loading={kit.saving}>
          Save requirements
        </Button>
      </Group>
    </KitForm>
  );
}

/** /definitions/:id/requirements: the checks, documents and declarations of a licence. */
export default function DefinitionRequirementsScreen() {
  const { can } = useRights();
  return (
    <DefinitionFrame>
      {(d) => (
        <Stack gap="lg" maw={880}>
          {can('lms_definitions.change_definition') ? (
            <>
              <RequirementsForm definition={d} />
              <CheckSettingsList definition={d} canChange />
            </>
          ) : (
            <>
              <Alert color="gray" variant="light" title="Read only">
                You may see this licence's requirements but not change them.
              </Alert>
              <RequirementSummary definition={d} />
              <CheckSettingsList definition={d} canChange={false} />
            </>
          )}
        </Stack>
      )}
    </DefinitionFrame>
  );
}
