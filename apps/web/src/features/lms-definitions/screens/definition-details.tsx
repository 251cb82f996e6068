import { Button, Group, Paper } from '@mantine/core';
import { KitForm, useKitForm } from '../../../components/form-kit';
import { type Definition, definitions } from '../api';
import { DefinitionFields } from '../components/definition-fields';
import { DefinitionFrame } from '../components/definition-frame';
import {
  type DefinitionDetails,
  type DefinitionDetailsValues,
  definitionDetailsSchema,
  definitionDetailsValues,
} from '../components/definition-schema';
import { NumberingPanel } from '../components/numbering-panel';

function DetailsForm({ definition }: { definition: Definition }) {
  const save = definitions.useSave({ partial: true });
  const kit = useKitForm<DefinitionDetailsValues, DefinitionDetails, Definition>({
    schema: definitionDetailsSchema,
    defaultValues: definitionDetailsValues(definition),
    submit: (values) => save.mutateAsync({ id: definition.id, values }),
    onSaved: (saved) => kit.form.reset(definitionDetailsValues(saved)),
  });
  return (
    <KitForm kit={kit} gap="lg" aria-label="Licence definition details">
      <Paper withBorder radius="lg" p={{ base: 'md', sm: 'xl' }} maw={880}>
        <DefinitionFields control={kit.form.control} />
      </Paper>
      <NumberingPanel definition={definition} />
      <Group justify="flex-end" maw={880}>
        <Button
          variant="default"
          disabled={!kit.form.formState.isDirty}
          onClick={() => kit.form.reset(definitionDetailsValues(definition))}
        >
          Discard changes
        </Button>
        <Button type="submit" loading={kit.saving}>
          Save details
        </Button>
      </Group>
    </KitForm>
  );
}

/** /definitions/:id/details: a definition's name, description, duration, fee and publishing. */
export default function DefinitionDetailsScreen() {
  return <DefinitionFrame>{(d) => <DetailsForm definition={d} />}</DefinitionFrame>;
}
