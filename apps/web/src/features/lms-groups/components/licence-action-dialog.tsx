import {
  LICENCE_ACTION_RULES,
  LICENCE_STATUS_LABELS,
  type LicenceAction,
  type LicenceActionInput,
  licenceActionInput,
} from '@kestrel/domain';
import { Button, Group, Modal, Stack, Text } from '@mantine/core';
import type { z } from 'zod';
import { KitForm, TextareaField, useKitForm } from '../../../components/form-kit';
import { notify } from '../../../lib/notify';
import { type Licence, useLicenceAction } from '../api';

/** What each action does to the holder, said before it is confirmed. */
const EFFECT: Record<LicenceAction, string> = {
  suspend:
    'The holder may not work under this licence until it is reinstated. It keeps its number and expiry date.',
  revoke: 'The licence ends for good: a revoked licence cannot be reinstated.',
  reinstate: 'The licence is active again until its expiry date.',
  surrender: 'The holder gives the licence up: it ends for good and cannot be reinstated.',
};

/** Red for the actions that end or stop a licence. */
export const isHarsh = (a: LicenceAction) => a !== 'reinstate';

function ActionForm({
  licence,
  action,
  onDone,
}: {
  licence: Licence;
  action: LicenceAction;
  onDone: () => void;
}) {
  const run = useLicenceAction();
  const rule = LICENCE_ACTION_RULES[action];
  const kit = useKitForm<z.input<typeof licenceActionInput>, LicenceActionInput, Licence>({
    schema: licenceActionInput,
    defaultValues: { reason: '' },
    submit: (values) => run.mutateAsync({ id: licence.id, action, reason: values.reason }),
    onSaved: (saved) => {
      notify.success(`Licence ${saved.number} ${rule.past}`);
      onDone();
    },
  });
  return (
    <KitForm kit={kit} aria-label={`${rule.label} licence`}>
      <Stack gap="xs">
        <Text size="sm" fw={600} style={{ overflowWrap: 'anywhere' }}>
          {licence.number} · {licence.holder_name}
        </Text>
        <Text size="sm">
          {LICENCE_STATUS_LABELS[licence.status]} → {LICENCE_STATUS_LABELS[rule.to]}.{' '}
          {EFFECT[action]}
        </Text>
      </Stack>
      <TextareaField
        size="md"
        control={kit.form.control}
        name="reason"
        label="Reason"
        description="Kept in the licence's trail with your name and the time"
        required
        autosize
        minRows={3}
        maxRows={8}
        data-autofocus
      />
      <Group justify="flex-end">
        <Button variant="default" onClick={onDone}>
          Cancel
        </Button>
        <Button type="submit" color={isHarsh(action) ? 'red' : undefined} loading={kit.saving}>
          {rule.label}
        </Button>
      </Group>
    </KitForm>
  );
}

/**
 * The confirmation of an action on a licence (suspend, revoke, reinstate, surrender) with its
 * required reason; the server's refusal (400) stays in the dialog, on the reason or above it.
 */
export function LicenceActionDialog({
  licence,
  action,
  onClose,
}: {
  licence: Licence;
  action: LicenceAction | null;
  onClose: () => void;
}) {
  return (
    <Modal
      opened={action !== null}
      onClose={onClose}
      title={action ? `${LICENCE_ACTION_RULES[action].label} the licence?` : ''}
    >
      {action && <ActionForm licence={licence} action={action} onDone={onClose} />}
    </Modal>
  );
}
