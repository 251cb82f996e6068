import { Button, Group, Paper, Stack, Title } from '@mantine/core';
import { useNavigate } from 'react-router';
import { KitForm } from '../../../components/form-kit';
import { href } from '../../../config/paths';
import { ProcessFrame } from '../../processes';
import { CycleFields, useCycleForm } from '../components/cycle-fields';

function AddCycle({ processId }: { processId: number }) {
  const navigate = useNavigate();
  const back = () => navigate(href('cycles', { id: processId }));
  const kit = useCycleForm(processId, undefined, back);
  return (
    <Stack gap="md" maw={880}>
      <Title order={2} size="h3">
        Add cycle
      </Title>
      <KitForm kit={kit} gap="lg" aria-label="Add cycle">
        <Paper withBorder radius="lg" p="xl">
          <CycleFields control={kit.form.control} />
        </Paper>
        <Group justify="flex-end">
          <Button variant="default" onClick={back}>
            Cancel
          </Button>
          <Button type="submit" loading={kit.saving}>
            Add cycle
          </Button>
        </Group>
      </KitForm>
    </Stack>
  );
}

/** /processes/:id/cycles/add: a new cycle; the process's cycles show once added. */
export default function CycleAdd() {
  return <ProcessFrame>{(process) => <AddCycle processId={process.id} />}</ProcessFrame>;
}
