import { Button, Group, Paper } from '@mantine/core';
import { KitForm } from '../../../components/form-kit';
import type { Segment } from '../api';
import { SegmentFields, segmentValues, useSegmentForm } from '../components/segment-fields';
import { SegmentFrame } from '../components/segment-frame';

function DetailsForm({ segment }: { segment: Segment }) {
  const kit = useSegmentForm(segment, (saved) => kit.form.reset(segmentValues(saved)));
  return (
    <Paper withBorder radius="lg" p="xl" maw={880}>
      <KitForm kit={kit} gap="lg" aria-label="Segment details">
        <SegmentFields control={kit.form.control} />
        <Group justify="flex-end">
          <Button type="submit" loading={kit.saving} disabled={!kit.form.formState.isDirty}>
            Save changes
          </Button>
        </Group>
      </KitForm>
    </Paper>
  );
}

/** /segments/{id}/details: the segment's name, employer name, address and contact, edited. */
export default function SegmentDetails() {
  return <SegmentFrame>{(s) => <DetailsForm segment={s} />}</SegmentFrame>;
}
