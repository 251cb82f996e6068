import {
  BILLING_TRIGGERS,
  type BillingTrigger,
  type CycleUpdate,
  cycleUpdate,
} from '@kestrel/domain';
import { NumberInput, SimpleGrid, Stack } from '@mantine/core';
import { type Control, type FieldValues, useController } from 'react-hook-form';
import type { z } from 'zod';
import {
  type Bound,
  CheckboxField,
  type KitFormState,
  MultiSelectField,
  NativeSelectField,
  TextField,
  useFieldLabel,
  useKitForm,
} from '../../../components/form-kit';
import { useSession } from '../../../lib/session/session-store';
import { type Cycle, processCycles } from '../api';

/** What the add and edit forms hold (contract: cycleUpdate). */
export type CycleValues = z.input<typeof cycleUpdate>;

export const emptyCycle: CycleValues = {
  name: '',
  requirements: [],
  repeat_interval: 6,
  repeat_unit: 'monthly',
  billing_interval: 1,
  billing_triggered: 'yearly',
  is_active: true,
};

/** The values of a cycle as its edit form starts from them. */
export function cycleValues(c: Cycle): CycleValues {
  const { name, requirements, repeat_interval, repeat_unit } = c;
  const { billing_interval, billing_triggered, is_active } = c;
  return {
    name,
    requirements,
    repeat_interval,
    repeat_unit,
    billing_interval,
    billing_triggered,
    is_active,
  };
}

/**
 * The form of a cycle of process `processId` (the kit's: the domain's rules in the browser, a
 * 400 on the fields and the summary): a new one, or `cycle` edited.
 */
export function useCycleForm(
  processId: number | string,
  cycle: Cycle | undefined,
  onSaved: (saved: Cycle) => void,
): KitFormState<CycleValues, CycleUpdate> {
  const save = processCycles(processId).useSave();
  return useKitForm({
    schema: cycleUpdate,
    defaultValues: cycle ? cycleValues(cycle) : emptyCycle,
    submit: (values) => save.mutateAsync({ id: cycle?.id, values }),
    onSaved,
  });
}

const UNIT_WORDS: Record<BillingTrigger, string> = {
  weekly: 'weeks',
  monthly: 'months',
  yearly: 'years',
};
const UNIT_OPTIONS = BILLING_TRIGGERS.map((u) => ({ value: u, label: UNIT_WORDS[u] }));
const TRIGGER_OPTIONS = BILLING_TRIGGERS.map((u) => ({
  value: u,
  label: u[0]?.toUpperCase() + u.slice(1),
}));

/** A whole number of periods (1–120); '' while empty, so the rules say what is missing. */
function IntervalField<T extends FieldValues, O>({
  control,
  name,
  label,
}: Bound<T, O> & { label: string }) {
  const { field, fieldState } = useController({ control, name });
  useFieldLabel(name, label);
  return (
    <NumberInput
      id={name}
      ref={field.ref}
      name={field.name}
      label={label}
      required
      size="md"
      min={1}
      max={120}
      allowDecimal={false}
      allowNegative={false}
      value={typeof field.value === 'number' ? field.value : ''}
      onChange={(v) => field.onChange(typeof v === 'number' ? v : undefined)}
      onBlur={field.onBlur}
      error={fieldState.error?.message}
    />
  );
}

/** The activity types the customer may order, by name (and any code a cycle already holds). */
export function useActivityTypeNames(): Map<string, string> {
  const { bootstrap } = useSession();
  return new Map((bootstrap?.activityTypes ?? []).map((t) => [t.code, t.name]));
}

/** A cycle's requirements in words: their activity types' names. */
export function requirementsText(codes: readonly string[], names: Map<string, string>): string {
  return codes.map((c) => names.get(c) ?? c).join(', ');
}

/** A cycle's fields: name, the requirements that repeat, how often, the billing cycle, active. */
export function CycleFields({
  control,
  held = [],
}: {
  control: Control<CycleValues, unknown, CycleUpdate>;
  /** Codes the cycle holds already (shown even when no longer orderable). */
  held?: readonly string[];
}) {
  const names = useActivityTypeNames();
  const options = [
    ...[...names].map(([value, label]) => ({ value, label })),
    ...held.filter((c) => !names.has(c)).map((c) => ({ value: c, label: c })),
  ];
  return (
    <Stack gap="md">
      <TextField control={control} name="name" label="Name" required />
      <MultiSelectField
        control={control}
        name="requirements"
        label="Requirements"
        description="The checks that repeat, each time in a new case"
        data={options}
        searchable
        required
      />
      <SimpleGrid cols={{ base: 1, sm: 2 }}>
        <IntervalField control={control} name="repeat_interval" label="Repeat every" />
        <NativeSelectField
          control={control}
          name="repeat_unit"
          label="Repeat unit"
          data={UNIT_OPTIONS}
        />
      </SimpleGrid>
      <SimpleGrid cols={{ base: 1, sm: 2 }}>
        <IntervalField control={control} name="billing_interval" label="Billing interval" />
        <NativeSelectField
          control={control}
          name="billing_triggered"
          label="Billing triggered"
          data={TRIGGER_OPTIONS}
        />
      </SimpleGrid>
      <CheckboxField
        control={control}
        name="is_active"
        label="Active"
        description="Subjects may be subscribed to an active cycle"
      />
    </Stack>
  );
}
