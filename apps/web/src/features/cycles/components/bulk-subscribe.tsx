import type { SubscriptionBulkOut } from '@kestrel/domain';
import { Button, Group, Modal, Stack, Text } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { z } from 'zod';
import { request } from '../../../api/client';
import { ApiFailure } from '../../../api/resource';
import { KitForm, SelectField, TextField, useKitForm } from '../../../components/form-kit';
import { notify } from '../../../lib/notify';
import { allCycles } from '../api';

/** The dialog's values: the cycle as the picker holds it, and an optional first due date. */
const bulkForm = z.object({
  cycle: z.string().min(1, 'Choose a cycle.'),
  starts_on: z
    .string()
    .regex(/^(\d{4}-\d{2}-\d{2})?$/, 'Enter a valid date.')
    .refine((d) => d === '' || d >= new Date().toISOString().slice(0, 10), {
      message: 'The first due date cannot be in the past.',
    }),
});
type BulkValues = z.input<typeof bulkForm>;

/** What a bulk subscription did, in a sentence. */
export function bulkSummary(out: SubscriptionBulkOut): string {
  const made = out.created.length;
  const kept = out.skipped.length;
  const subscribed = `${made} ${made === 1 ? 'subject' : 'subjects'} subscribed`;
  return kept === 0
    ? `${subscribed}.`
    : `${subscribed}; ${kept} already subscribed, left as they were.`;
}

function BulkForm({ subjectIds, onDone }: { subjectIds: number[]; onDone: () => void }) {
  const client = useQueryClient();
  const cycles = allCycles.useList({ is_active: 'true', page_size: 100 });
  const options = (cycles.data?.results ?? []).map((c) => ({
    value: String(c.id),
    label: `${c.name} (${c.process_name}): ${c.repeat_text}, billed ${c.billing_text.toLowerCase()}`,
  }));
  const kit = useKitForm({
    schema: bulkForm,
    defaultValues: { cycle: '', starts_on: '' } satisfies BulkValues,
    submit: async ({ cycle, starts_on }) => {
      const r = await request<SubscriptionBulkOut>('POST', '/api/subscriptions/bulk/', {
        body: {
          cycle: Number(cycle),
          subjects: subjectIds,
          ...(starts_on ? { starts_at: `${starts_on}T00:00:00Z` } : {}),
        },
      });
      if (!r.ok) throw new ApiFailure(r.status, r.data, null);
      return r.data;
    },
    onSaved: (out) => {
      notify.success(bulkSummary(out));
      void client.invalidateQueries({
        predicate: (q) => String(q.queryKey[0]).includes('subscriptions/'),
      });
      onDone();
    },
  });
  return (
    <KitForm kit={kit} gap="md" aria-label="Subscribe the chosen subjects">
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
        description="Leave empty to open the first cases now"
      />
      <Group justify="flex-end">
        <Button variant="default" onClick={onDone}>
          Cancel
        </Button>
        <Button type="submit" loading={kit.saving}>
          Subscribe
        </Button>
      </Group>
    </KitForm>
  );
}

/**
 * The subjects list's action on the subjects chosen (issue 31: subscribe in bulk): a dialog
 * choosing the cycle and the first due date; each subject is subscribed once (those already
 * subscribed are left, and said so).
 */
export function BulkSubscribe({
  subjectIds,
  onDone,
}: {
  subjectIds: number[];
  onDone: () => void;
}) {
  const [open, setOpen] = useState(false);
  const n = subjectIds.length;
  return (
    <>
      <Group gap="sm" wrap="wrap">
        <Text size="sm" aria-live="polite">
          {n} {n === 1 ? 'subject' : 'subjects'} chosen
        </Text>
        <Button size="sm" onClick={() => setOpen(true)} disabled={n === 0}>
          Subscribe to a cycle
        </Button>
        <Button size="sm" variant="subtle" onClick={onDone}>
          Clear
        </Button>
      </Group>
      <Modal
        opened={open}
        onClose={() => setOpen(false)}
        title={`Subscribe ${n} ${n === 1 ? 'subject' : 'subjects'} to a cycle`}
      >
        <Stack gap="md">
          <BulkForm
            subjectIds={subjectIds}
            onDone={() => {
              setOpen(false);
              onDone();
            }}
          />
        </Stack>
      </Modal>
    </>
  );
}
