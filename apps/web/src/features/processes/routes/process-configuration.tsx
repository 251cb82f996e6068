import { zodResolver } from '@hookform/resolvers/zod';
import {
  DEFAULT_REMINDER_SCHEDULE,
  describeReminderSchedule,
  maxCharacters,
  REMINDER_LIMIT_MAX,
} from '@kestrel/domain';
import {
  Button,
  Fieldset,
  Group,
  Paper,
  SimpleGrid,
  Stack,
  Switch,
  Text,
  Textarea,
  TextInput,
} from '@mantine/core';
import { Controller, useForm } from 'react-hook-form';
import { z } from 'zod';
import { type Process, processes } from '../../../api/processes';
import { ProcessFrame } from '../components/process-frame';

const days = (min: number, max: number) =>
  z.coerce
    .number({ error: 'Enter a number of days' })
    .int('Enter a whole number of days')
    .min(min, `Enter ${min} or more`)
    .max(max, `At most ${max} days`);

const schema = z.object({
  send_invitation: z.boolean(),
  reminder_days: z.coerce
    .number({ error: 'Enter a number of days' })
    .int('Enter a whole number of days')
    .min(0, 'Enter 0 or more')
    .max(365, 'At most 365 days'),
  invitation_message: z.string().trim().max(1000, maxCharacters(1000)),
  // issue 33: the automatic reminder cadence, the invitation's expiry, text messages
  reminders_on: z.boolean(),
  daily_days: days(0, 14),
  then_every_days: days(1, 60),
  max_reminders: z.coerce
    .number({ error: 'Enter a number' })
    .int('Enter a whole number')
    .min(1, 'Enter 1 or more')
    .max(REMINDER_LIMIT_MAX, `At most ${REMINDER_LIMIT_MAX}`),
  invitation_expiry_days: days(0, 365),
  reminder_sms: z.boolean(),
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
      reminders_on: process.reminder_schedule !== null,
      ...(process.reminder_schedule ?? DEFAULT_REMINDER_SCHEDULE),
      invitation_expiry_days: process.invitation_expiry_days,
      reminder_sms: process.reminder_sms,
    },
  });
  const remindersOn = form.watch('reminders_on');
  const save = processes.useSave({ partial: true });
  const { errors, isDirty } = form.formState;
  const submit = form.handleSubmit(async (v) => {
    const values = {
      send_invitation: v.send_invitation,
      reminder_days: v.reminder_days,
      invitation_message: v.invitation_message,
      reminder_schedule: v.reminders_on
        ? {
            daily_days: v.daily_days,
            then_every_days: v.then_every_days,
            max_reminders: v.max_reminders,
          }
        : null,
      invitation_expiry_days: v.invitation_expiry_days,
      reminder_sms: v.reminder_sms,
    };
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
          <Fieldset legend="Automatic reminders and expiry" radius="md">
            <Stack gap="sm">
              <Text size="sm" c="dimmed">
                A reminder goes only when the subject has done nothing for 24 hours, and never
                within 24 hours of another (manual ones included).
              </Text>
              <Controller
                control={form.control}
                name="reminders_on"
                render={({ field }) => (
                  <Switch
                    label="Send automatic reminders"
                    description={
                      process.reminder_schedule
                        ? `Now: ${describeReminderSchedule(process.reminder_schedule)}`
                        : undefined
                    }
                    checked={Boolean(field.value)}
                    onChange={(e) => field.onChange(e.currentTarget.checked)}
                    onBlur={field.onBlur}
                    name={field.name}
                  />
                )}
              />
              {remindersOn && (
                <SimpleGrid cols={{ base: 1, sm: 3 }}>
                  <TextInput
                    label="Daily for the first (days)"
                    inputMode="numeric"
                    error={errors.daily_days?.message}
                    {...form.register('daily_days')}
                  />
                  <TextInput
                    label="Then every (days)"
                    inputMode="numeric"
                    error={errors.then_every_days?.message}
                    {...form.register('then_every_days')}
                  />
                  <TextInput
                    label="At most (reminders)"
                    inputMode="numeric"
                    error={errors.max_reminders?.message}
                    {...form.register('max_reminders')}
                  />
                </SimpleGrid>
              )}
              <Controller
                control={form.control}
                name="reminder_sms"
                render={({ field }) => (
                  <Switch
                    label="Also remind by text message"
                    description="To subjects with a mobile number who accept messages"
                    checked={Boolean(field.value)}
                    onChange={(e) => field.onChange(e.currentTarget.checked)}
                    onBlur={field.onBlur}
                    name={field.name}
                  />
                )}
              />
              <TextInput
                label="Invitation expires after (days)"
                description="0: never. An expired invitation waits for you to resend or cancel it."
                inputMode="numeric"
                error={errors.invitation_expiry_days?.message}
                {...form.register('invitation_expiry_days')}
              />
            </Stack>
          </Fieldset>
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
