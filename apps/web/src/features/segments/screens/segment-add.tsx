import { Button, Group, Paper, Stack, Title } from '@mantine/core';
import { useNavigate } from 'react-router';
import { KitForm } from '../../../components/form-kit';
import { href } from '../../../config/paths';
import { SegmentFields, useSegmentForm } from '../components/segment-fields';

/** /segments/add: a new segment; its page opens once added ('Successfully added segment'). */
export default function SegmentAdd() {
  const navigate = useNavigate();
  const kit = useSegmentForm(undefined, (created) => navigate(href('segment', { id: created.id })));
  return (
    <Stack gap="lg" maw={880}>
      <Title order={1}>Add segment</Title>
      <KitForm kit={kit} gap="lg" aria-label="Add segment">
        <Paper withBorder radius="lg" p="xl">
          <SegmentFields control={kit.form.control} />
        </Paper>
        <Group justify="flex-end">
          <Button variant="default" onClick={() => navigate(href('segments'))}>
            Cancel
          </Button>
          <Button type="submit" loading={kit.saving}>
            Add segment
          </Button>
        </Group>
      </KitForm>
    </Stack>
  );
}
