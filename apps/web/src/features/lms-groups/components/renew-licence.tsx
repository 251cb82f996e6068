import { applicationApplyInput, formatDate } from '@kestrel/domain';
import { Button, Group, Modal, Stack, Text } from '@mantine/core';
import { useState } from 'react';
import { useNavigate } from 'react-router';
import { z } from 'zod';
import { KitForm, TextField, useKitForm } from '../../../components/form-kit';
import { href } from '../../../config/paths';
import { notify } from '../../../lib/notify';
import { type Licence, useRenewLicence } from '../api';

/** The renewal's one field: the holder's HMRC tax check code (a renewal always needs one). */
const renewForm = z.object({
  tax_check_code: applicationApplyInput.shape.tax_check_code,
});

function RenewForm({ licence, onDone }: { licence: Licence; onDone: () => void }) {
  const renew = useRenewLicence();
  const navigate = useNavigate();
  const kit = useKitForm({
    schema: renewForm,
    defaultValues: { tax_check_code: '' },
    submit: (values) =>
      renew.mutateAsync({ id: licence.id, tax_check_code: values.tax_check_code }),
    onSaved: (app) => {
      notify.success(`Renewal ${app.reference} opened for ${licence.holder_name}`);
      onDone();
      navigate(
        href(
          'definition-application-portal',
          { id: app.definition, appId: app.portal },
          { application: String(app.id) },
        ),
      );
    },
  });
  return (
    <KitForm kit={kit} aria-label="Start a renewal">
      <Stack gap="xs">
        <Text size="sm" fw={600} style={{ overflowWrap: 'anywhere' }}>
          {licence.number} · {licence.holder_name}
        </Text>
        <Text size="sm">
          A renewal application for the holder on this licence type's open renewal portal. The
          licence runs until {formatDate(licence.expiry_date)} meanwhile.
        </Text>
      </Stack>
      <TextField
        size="md"
        control={kit.form.control}
        name="tax_check_code"
        label="HMRC tax check code"
        description="The holder's 9-character code from HMRC (valid 120 days): a renewal needs one"
        autoComplete="off"
        required
        data-autofocus
      />
      <Group justify="flex-end">
        <Button variant="default" onClick={onDone}>
          Cancel
        </Button>
        <Button type="submit" loading={kit.saving}>
          Start the renewal
        </Button>
      </Group>
    </KitForm>
  );
}

/**
 * "Start a renewal" on an active licence (issue 32): from the holder's record, a renewal
 * application before the licence expires, with the holder's tax check code; the server's refusal
 * (no open renewal portal, a missing, malformed or expired code) stays in the dialog.
 */
export function RenewLicence({ licence }: { licence: Licence }) {
  const [open, setOpen] = useState(false);
  return (
    <>
      <Button variant="default" onClick={() => setOpen(true)}>
        Start a renewal
      </Button>
      <Modal opened={open} onClose={() => setOpen(false)} title="Start a renewal?">
        {open && <RenewForm licence={licence} onDone={() => setOpen(false)} />}
      </Modal>
    </>
  );
}
