import { Button, Group, Paper, Skeleton, Stack, Text, Title } from '@mantine/core';
import { useMemo } from 'react';
import { useNavigate, useParams } from 'react-router';
import { KitForm } from '../../../components/form-kit';
import { href } from '../../../config/paths';
import { ProcessFrame } from '../../processes';
import { type Cycle, processCycles } from '../api';
import { CycleFields, useCycleForm } from '../components/cycle-fields';

function EditForm({ cycle }: { cycle: Cycle }) {
  const navigate = useNavigate();
  const back = () => navigate(href('cycles', { id: cycle.process }));
  const kit = useCycleForm(cycle.process, cycle, back);
  return (
    <KitForm kit={kit} gap="lg" aria-label="Edit cycle">
      <Paper withBorder radius="lg" p="xl">
        <CycleFields control={kit.form.control} held={cycle.requirements} />
      </Paper>
      <Group justify="flex-end">
        <Button variant="default" onClick={back}>
          Cancel
        </Button>
        <Button type="submit" loading={kit.saving}>
          Save cycle
        </Button>
      </Group>
    </KitForm>
  );
}

function EditCycle({ processId }: { processId: number }) {
  const { cycleId = '' } = useParams();
  const resource = useMemo(() => processCycles(processId), [processId]);
  const query = resource.useItem(cycleId);
  return (
    <Stack gap="md" maw={880}>
      <Title order={2} size="h3">
        {query.data ? `Edit ${query.data.name}` : 'Edit cycle'}
      </Title>
      {query.data ? (
        <EditForm cycle={query.data} />
      ) : query.isError ? (
        <Text c="dimmed">This cycle could not be found.</Text>
      ) : (
        <Skeleton h={320} radius="lg" />
      )}
    </Stack>
  );
}

/** /processes/:id/cycles/:cycleId/edit: a cycle's fields; the process's cycles show once saved. */
export default function CycleEdit() {
  return <ProcessFrame>{(process) => <EditCycle processId={process.id} />}</ProcessFrame>;
}
