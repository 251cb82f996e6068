import { zodResolver } from '@hookform/resolvers/zod';
import { Button, Group, Paper, Stack, Switch, Textarea, TextInput } from '@mantine/core';
import { Controller, useForm } from 'react-hook-form';
import { type Process, processes } from '../../../api/processes';
import { ApiFailure } from '../../../api/resource';
import { applyServerFieldErrors } from '../../../components/form-kit';
import { ProcessFrame } from '../components/process-frame';
import { type ProcessDetails, processDetailsSchema } from '../components/process-schema';

function DetailsForm({ process }: { process: Process }) {
  const form = useForm<ProcessDetails>({
    resolver: zodResolver(processDetailsSchema),
    values: {
      name: process.name,
      description: process.description,
      is_active: process.is_active,
    },
  });
  const save = processes.useSave({ partial: true });
  const { errors, isDirty } = form.formState;
  const submit = form.handleSubmit(async (values) => {
    try {
      await save.mutateAsync({ id: process.id, values });
    } catch (error) {
      if (error instanceof ApiFailure && error.status === 400) {
        applyServerFieldErrors<ProcessDetails>(form, error.body, ['name', 'description']);
      }
    }
  });
  return (
    <Paper withBorder radius="lg" p="xl" maw={720}>
      <form onSubmit={submit} noValidate>
        <Stack gap="md">
          <TextInput
            label="Name"
            required
            error={errors.name?.message}
            {...form.register('name')}
          />
          <Textarea
            label="Description"
            autosize
            minRows={3}
            error={errors.description?.message}
            {...form.register('description')}
          />
          <Controller
            control={form.control}
            name="is_active"
            render={({ field }) => (
              <Switch
                label="Active (new cases can be opened under this process)"
                checked={Boolean(field.value)}
                onChange={(e) => field.onChange(e.currentTarget.checked)}
                onBlur={field.onBlur}
                name={field.name}
              />
            )}
          />
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

export default function ProcessDetailsPage() {
  return <ProcessFrame>{(p) => <DetailsForm process={p} />}</ProcessFrame>;
}
