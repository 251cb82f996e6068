import { type LicenceUpdate, licenceUpdate } from '@kestrel/domain';
import { Button, Group, Text } from '@mantine/core';
import { useState } from 'react';
import type { z } from 'zod';
import { KitForm, TextareaField, useKitForm } from '../../../components/form-kit';
import { type Licence, licences } from '../api';

function ConditionsForm({ licence, onDone }: { licence: Licence; onDone: () => void }) {
  const save = licences.useSave({ partial: true });
  const kit = useKitForm<z.input<typeof licenceUpdate>, LicenceUpdate, Licence>({
    schema: licenceUpdate,
    defaultValues: { conditions: licence.conditions },
    submit: (values) => save.mutateAsync({ id: licence.id, values }),
    onSaved: onDone,
  });
  return (
    <KitForm kit={kit} aria-label="Licence conditions">
      <TextareaField
        size="md"
        control={kit.form.control}
        name="conditions"
        label="Conditions"
        description="Conditions attached to the licence, such as a vehicle's permitted area"
        autosize
        minRows={3}
        maxRows={10}
      />
      <Group justify="flex-end">
        <Button variant="default" onClick={onDone}>
          Cancel
        </Button>
        <Button type="submit" loading={kit.saving}>
          Save conditions
        </Button>
      </Group>
    </KitForm>
  );
}

/** The licence's conditions, edited in place by who may change licences. */
export function LicenceConditions({ licence, canEdit }: { licence: Licence; canEdit: boolean }) {
  const [editing, setEditing] = useState(false);
  if (editing) return <ConditionsForm licence={licence} onDone={() => setEditing(false)} />;
  return (
    <>
      <Text size="sm" style={{ whiteSpace: 'pre-line', overflowWrap: 'anywhere' }}>
        {licence.conditions || 'No conditions.'}
      </Text>
      {canEdit && (
        <Group>
          <Button variant="default" size="compact-sm" onClick={() => setEditing(true)}>
            Edit conditions
          </Button>
        </Group>
      )}
    </>
  );
}
