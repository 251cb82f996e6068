import { Button, Group, Modal, Stack, Text } from '@mantine/core';
import { useState } from 'react';
import { useNavigate } from 'react-router';
import { href } from '../../../config/paths';
import { type Segment, segments } from '../api';

/**
 * Deletes the segment after a confirmation that says what follows: its users are no longer
 * limited by it and its processes belong to the whole organisation again.
 */
export function DeleteSegment({ segment }: { segment: Segment }) {
  const [open, setOpen] = useState(false);
  const remove = segments.useDelete();
  const navigate = useNavigate();
  const confirm = async () => {
    try {
      await remove.mutateAsync(segment.id);
    } catch {
      return; // 'Error deleting segment' was shown
    }
    setOpen(false);
    navigate(href('segments'));
  };
  return (
    <>
      <Button variant="light" color="red" onClick={() => setOpen(true)}>
        Delete segment
      </Button>
      <Modal opened={open} onClose={() => setOpen(false)} title={`Delete ${segment.name}?`}>
        <Stack gap="md">
          <Text size="sm">
            Its users are no longer limited by it, and its processes belong to the whole
            organisation again. Cases and subjects are kept.
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
