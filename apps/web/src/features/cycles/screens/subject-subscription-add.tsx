import { Anchor, Button, Group, Paper, Skeleton, Stack, Text, Title } from '@mantine/core';
import { useMemo } from 'react';
import { Link, useNavigate, useParams } from 'react-router';
import { z } from 'zod';
import { fullName, type Subject, subjects } from '../../../api/subjects';
import { KitForm, SelectField, TextField, useKitForm } from '../../../components/form-kit';
import { href } from '../../../config/paths';
import { allCycles, subjectSubscriptions } from '../api';

/** The form's values: the cycle's id as the picker holds it, and an optional first due date. */
const subscribeForm = z.object({
  cycle: z.string().min(1, 'Choose a cycle.'),
  starts_on: z
    .string()
    .regex(/^(\d{4}-\d{2}-\d{2})?$/, 'Enter a valid date.')
    .refine((d) => d === '' || d >= new Date().toISOString().slice(0, 10), {
      message: 'The first due date cannot be in the past.',
    }),
});
type SubscribeValues = z.input<typeof subscribeForm>;

function SubscribeForm({ subject }: { subject: Subject }) {
  const navigate = useNavigate();
  const back = () => navigate(href('subject-subscriptions', { id: subject.id }));
  const resource = useMemo(() => subjectSubscriptions(subject.id), [subject.id]);
  const save = resource.useSave();
  const cycles = allCycles.useList({ is_active: 'true', page_size: 100 });
  const options = (cycles.data?.results ?? []).map((c) => ({
    value: String(c.id),
    label: `${c.name} (${c.process_name}): ${c.repeat_text}, billed ${c.billing_text.toLowerCase()}`,
  }));
  const kit = useKitForm({
    schema: subscribeForm,
    defaultValues: { cycle: '', starts_on: '' } satisfies SubscribeValues,
    submit: ({ cycle, starts_on }) =>
      save.mutateAsync({
        values: {
          cycle: Number(cycle),
          ...(starts_on ? { starts_at: `${starts_on}T00:00:00Z` } : {}),
        },
      }),
    onSaved: back,
  });
  return (
    <KitForm kit={kit} gap="lg" aria-label="Subscribe to a cycle">
      <Paper withBorder radius="lg" p="xl">
        <Stack gap="md">
          <SelectField
            control={kit.form.control}
            name="cycle"
            label="Cycle"
            description="The active cycles of your processes"
            data={options}
            searchable
            required
            nothingFoundMessage="No active cycle"
          />
          <TextField
            control={kit.form.control}
            name="starts_on"
            type="date"
            label="First due date"
            description="Leave empty to open the first case now"
          />
        </Stack>
      </Paper>
      <Group justify="flex-end">
        <Button variant="default" onClick={back}>
          Cancel
        </Button>
        <Button type="submit" loading={kit.saving}>
          Subscribe
        </Button>
      </Group>
    </KitForm>
  );
}

/** /subjects/:id/subscriptions/add: subscribe the subject to an active cycle. */
export default function SubjectSubscriptionAdd() {
  const { id = '' } = useParams();
  const query = subjects.useItem(id);
  const s = query.data;
  return (
    <Stack gap="lg" maw={880}>
      <Anchor component={Link} to={href('subject-subscriptions', { id })} size="sm">
        ← Back to the subject
      </Anchor>
      <Title order={1}>{s ? `Subscribe ${fullName(s)} to a cycle` : 'Add subscription'}</Title>
      {s ? (
        s.is_archived ? (
          <Text c="dimmed">This subject is archived.</Text>
        ) : (
          <SubscribeForm subject={s} />
        )
      ) : query.isError ? (
        <Text c="dimmed">This subject could not be found.</Text>
      ) : (
        <Skeleton h={200} radius="lg" />
      )}
    </Stack>
  );
}
