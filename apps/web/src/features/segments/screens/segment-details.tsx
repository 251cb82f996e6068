import { Button, Group, Paper, Stack } from '@mantine/core';
import { ApiFailure } from '../../../api/resource';
import { applyServerErrors } from '../../../components/server-errors';
import { type Segment, segments } from '../api';
import {
  SEGMENT_FIELDS,
  SegmentFields,
  type SegmentValues,
  useSegmentForm,
} from '../components/segment-fields';
import { SegmentFrame } from '../components/segment-frame';

function DetailsForm({ segment }: { segment: Segment }) {
  const form = useSegmentForm(segment);
  const save = segments.useSave();
  const { isDirty } = form.formState;
  const submit = form.handleSubmit(async (values) => {
    try {
      await save.mutateAsync({ id: segment.id, values });
    } catch (error) {
      if (error instanceof ApiFailure && error.status === 400) {
        applyServerErrors<SegmentValues>(error.body, SEGMENT_FIELDS, form.setError);
      }
    }
  });
  return (
    <Paper withBorder radius="lg" p="xl" maw={880}>
      <form onSubmit={submit} noValidate>
        <Stack gap="lg">
          <SegmentFields form={form} />
          <Group justify="flex-end">
            <Button type="submit" loading={save.isPending} disabled={!isDirty}>
              Save changes
            </Button>
          </Group>
        </Stack>
      </form>
    </Paper>
  );
}

/** /segments/{id}/details: the segment's name, employer name, address and contact, edited. */
export default function SegmentDetails() {
  return <SegmentFrame>{(s) => <DetailsForm segment={s} />}</SegmentFrame>;
}
