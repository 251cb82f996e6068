import { zodResolver } from '@hookform/resolvers/zod';
import { maxCharacters } from '@kestrel/domain';
import { Button, Group, Paper, Stack, Switch, Textarea, TextInput } from '@mantine/core';
import { Controller, useForm } from 'react-hook-form';
import { z } from 'zod';
import { type Process, processes } from '../../../api/processes';
import { ProcessFrame } from '../components/process-frame';

const schema = z.object({
  send_invitation: z.boolean(),
  reminder_days: z.coerce
    .number({ error: 'Enter a number of days' })
    .int('Enter a whole number of days')
    .min(0, 'Enter 0 or more')
    .max(365, 'At most 365 days'),
  invitation_message: z.string().trim().max(1000, maxCharacters(1000)),
});
type In = z.input<typeof schema>;
type Out = z.output<typeof schema>;

function ConfigurationForm({ process }: { process: Process }) {
  const form = useForm<In, unknown, Out>({
    resolver: zodResolver(schema),
    values: {
      send_invitation: process.send_invitation,
      reminder_days: process.reminder_days,
      invitation_message: process.invitation_message,
    },
  });
  const save = processes.useSave({ partial: true });
  const { errors, isDirty } = form.formState;
  const submit = form.handleSubmit(async (values) => {
    await save.mutateAsync({ id: process.id, values }).catch(() => undefined);
  });
  return (
    <Paper withBorder radius="lg" p="xl" maw={720}>
      <form onSubmit={submit} noValidate>
        <Stack gap="md">
          <Controller
            control={form.control}
            name="send_invitation"
            render={({ field }) => (
              <Switch
                label="Email the subject an invitation when a case opens"
                checked={Boolean(field.value)}
                onChange={(e) => field.onChange(e.currentTarget.checked)}
                onBlur={field.onBlur}
                name={field.name}
              />
            )}
          />
          <TextInput
            label="Days between reminders"
            description="0 sends no reminders"
            inputMode="numeric"
            error={errors.reminder_days?.message}
            {...form.register('reminder_days')}
          />
          <Textarea
            label="Message added to the invitation"
            autosize
            minRows={3}
            error={errors.invitation_message?.message}
            {...form.register('invitation_message')}
          />
          <Group justify="flex-end">
            <Button type="submit" loading={save.isPending} disabled={!isDirty}>
              Save configuration
            </Button>
          </Group>
        </Stack>
      </form>
    </Paper>
  );
}

export default function ProcessConfiguration() {
  return <ProcessFrame>{(p) => <ConfigurationForm process={p} />}</ProcessFrame>;
}
