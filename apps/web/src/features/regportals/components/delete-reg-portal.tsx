import { Button, Group, Modal, Stack, Text } from '@mantine/core';
import { useMemo, useState } from 'react';
import { processRegPortals, type RegPortal } from '../api';

/** Deletes a portal after a confirmation (the catalogue's toasts say how it went). */
export function DeleteRegPortal({ portal }: { portal: RegPortal }) {
  const [open, setOpen] = useState(false);
  const resource = useMemo(() => processRegPortals(portal.process_id), [portal.process_id]);
  const remove = resource.useDelete();
  const confirm = async () => {
    try {
      await remove.mutateAsync(portal.id);
      setOpen(false);
    } catch {
      // toasted by the resource; the dialog stays open to try again
    }
  };
  return (
    <>
      <Button
        variant="subtle"
        color="red"
        size="compact-sm"
        onClick={() => setOpen(true)}
        aria-label={`Delete ${portal.title}`}
      >
        Delete
      </Button>
      <Modal opened={open} onClose={() => setOpen(false)} title={`Delete ${portal.title}?`}>
        <Stack gap="md">
          <Text size="sm">
            Its link stops working. Registrations already made, and their cases, are kept.
          </Text>
          <Group justify="flex-end">
            <Button variant="default" onClick={() => setOpen(false)}>
              Keep it
            </Button>
            <Button color="red" loading={remove.isPending} onClick={() => void confirm()}>
              Delete
            </Button>
          </Group>
        </Stack>
      </Modal>
    </>
  );
}
