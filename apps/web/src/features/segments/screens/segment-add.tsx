import { Button, Group, Paper, Stack, Title } from '@mantine/core';
import { useNavigate } from 'react-router';
import { ApiFailure } from '../../../api/resource';
import { applyServerErrors } from '../../../components/server-errors';
import { href } from '../../../config/paths';
import { segments } from '../api';
import {
  SEGMENT_FIELDS,
  SegmentFields,
  type SegmentValues,
  useSegmentForm,
} from '../components/segment-fields';

/** /segments/add: a new segment; its page opens once added ('Successfully added segment'). */
export default function SegmentAdd() {
  const navigate = useNavigate();
  const form = useSegmentForm();
  const save = segments.useSave();
  const submit = form.handleSubmit(async (values) => {
    try {
      const created = await save.mutateAsync({ values });
      navigate(href('segment', { id: created.id }));
    } catch (error) {
      if (error instanceof ApiFailure && error.status === 400) {
        applyServerErrors<SegmentValues>(error.body, SEGMENT_FIELDS, form.setError);
      }
    }
  });
  return (
    <Stack gap="lg" maw={880}>
      <Title order={1}>Add segment</Title>
      <form onSubmit={submit} noValidate>
        <Stack gap="lg">
          <Paper withBorder radius="lg" p="xl">
            <SegmentFields form={form} />
          </Paper>
          <Group justify="flex-end">
            <Button variant="default" onClick={() => navigate(href('segments'))}>
              Cancel
            </Button>
            <Button type="submit" loading={save.isPending}>
              Add segment
            </Button>
          </Group>
        </Stack>
      </form>
    </Stack>
  );
}
