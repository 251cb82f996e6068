import { Alert, Button, Group, Modal, Stack, Text } from '@mantine/core';
import { useState } from 'react';
import { ApiFailure } from '../../../api/resource';
import { type Cycle, errorLines, useDeleteCycle } from '../api';

/**
 * Deletes a cycle after a confirmation; when the server refuses (a 400: subscriptions still
 * active or paused) its message stays in the dialog.
 */
export function DeleteCycle({ cycle }: { cycle: Cycle }) {
  const [open, setOpen] = useState(false);
  const [problems, setProblems] = useState<string[]>([]);
  const remove = useDeleteCycle(cycle.process);
  const close = () => {
    setOpen(false);
    setProblems([]);
  };
  const confirm = async () => {
    setProblems([]);
    try {
      await remove.mutateAsync(cycle.id);
      close();
    } catch (error) {
      setProblems(
        error instanceof ApiFailure && error.status === 400
          ? errorLines(error.body)
          : ['The cycle could not be deleted. Try again.'],
      );
    }
  };
  return (
    <>
      <Button
        variant="subtle"
        color="red"
        size="compact-sm"
        onClick={() => setOpen(true)}
        aria-label={`Delete ${cycle.name}`}
      >
        Delete
      </Button>
      <Modal opened={open} onClose={close} title={`Delete ${cycle.name}?`}>
        <Stack gap="md">
          <Text size="sm">
            Its checks stop repeating. Cases it already opened are kept, and ended subscriptions go
            with it.
          </Text>
          {problems.length > 0 && (
            <Alert color="red" role="alert" title="Not deleted">
              {problems.map((p) => (
                <Text key={p} size="sm">
                  {p}
                </Text>
              ))}
            </Alert>
          )}
          <Group justify="flex-end">
            <Button variant="default" onClick={close}>
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
