import {
  REG_PORTAL_INTRODUCTION_MAX,
  REG_PORTAL_PATH_MAX,
  REG_PORTAL_TITLE_MAX,
  type RegPortalCreate,
  type RegPortalFieldMode,
  type RegPortalPayer,
  regPortalCreate,
} from '@kestrel/domain';
import { Box, NumberInput, Select, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { type Control, useController } from 'react-hook-form';
import type { z } from 'zod';
import { DateSelector } from '../../../components/date-selector';
import {
  CheckboxField,
  type KitFormState,
  NativeSelectField,
  TextareaField,
  TextField,
  useFieldLabel,
  useKitForm,
} from '../../../components/form-kit';
import { processRegPortals, type RegPortal, segmentChoices } from '../api';

/** What the add and edit forms hold (contract: regPortalCreate). */
export type RegPortalValues = z.input<typeof regPortalCreate>;
type Ctl = Control<RegPortalValues, unknown, RegPortalCreate>;

export const emptyRegPortal: RegPortalValues = {
  // 0 until a segment is chosen: the id rule says what is missing.
  segment_id: 0,
  path: '',
  title: '',
  introduction: '',
  payer: 'customer',
  ask_email: 'required',
  ask_dob: 'required',
  ask_phone: 'optional',
  open: true,
  registration_limit: null,
  closes_on: null,
};

/** The values of a portal as its edit form starts from them. */
export function regPortalValues(p: RegPortal): RegPortalValues {
  const { segment_id, path, title, introduction, payer, ask_email, ask_dob, ask_phone } = p;
  const { open, registration_limit, closes_on } = p;
  return {
    segment_id,
    path,
    title,
    introduction,
    payer,
    ask_email,
    ask_dob,
    ask_phone,
    open,
    registration_limit,
    closes_on,
  };
}

/**
 * The form of a registration portal of process `processId` (the kit's: the domain's rules in
 * the browser, a 400 on the fields and in the summary): a new one, or `portal` changed (PATCH).
 */
export function useRegPortalForm(
  processId: number | string,
  portal: RegPortal | undefined,
  onSaved: (saved: RegPortal) => void,
): KitFormState<RegPortalValues, RegPortalCreate> {
  const save = processRegPortals(processId).useSave({ partial: true });
  return useKitForm({
    schema: regPortalCreate,
    defaultValues: portal ? regPortalValues(portal) : emptyRegPortal,
    submit: (values) => save.mutateAsync({ id: portal?.id, values }),
    onSaved,
  });
}

export const PAYER_LABELS: Record<RegPortalPayer, string> = {
  customer: 'Your organisation',
  subject: 'The person registering',
};
export const MODE_LABELS: Record<RegPortalFieldMode, string> = {
  required: 'Asked, required',
  optional: 'Asked, optional',
  hidden: 'Not asked',
};
const PAYER_OPTIONS = Object.entries(PAYER_LABELS).map(([value, label]) => ({ value, label }));
const MODE_OPTIONS = Object.entries(MODE_LABELS).map(([value, label]) => ({ value, label }));

/** The segment the portal is published in (its id is in the public link). */
function SegmentField({ control }: { control: Ctl }) {
  const { field, fieldState } = useController({ control, name: 'segment_id' });
  const label = 'Segment';
  useFieldLabel('segment_id', label);
  const list = segmentChoices.useList({ page_size: 100 });
  const data = (list.data?.results ?? []).map((s) => ({ value: String(s.id), label: s.name }));
  const value = typeof field.value === 'number' && field.value > 0 ? String(field.value) : null;
  return (
    <Select
      id="segment_id"
      ref={field.ref}
      name={field.name}
      label={label}
      description="Its number starts the public link; the segment's users see the registrations"
      required
      size="md"
      searchable
      allowDeselect={false}
      data={data}
      nothingFoundMessage="No segment has this name"
      value={value}
      onChange={(v) => field.onChange(v ? Number(v) : 0)}
      onBlur={field.onBlur}
      error={fieldState.error?.message}
    />
  );
}

/** The most registrations it takes ('' while empty: no limit). */
function LimitField({ control }: { control: Ctl }) {
  const { field, fieldState } = useController({ control, name: 'registration_limit' });
  const label = 'Registration limit';
  useFieldLabel('registration_limit', label);
  return (
    <NumberInput
      id="registration_limit"
      ref={field.ref}
      name={field.name}
      label={label}
      description="Leave empty for no limit"
      size="md"
      min={1}
      allowDecimal={false}
      allowNegative={false}
      value={typeof field.value === 'number' ? field.value : ''}
      onChange={(v) => field.onChange(typeof v === 'number' ? v : null)}
      onBlur={field.onBlur}
      error={fieldState.error?.message}
    />
  );
}

const today = () => new Date().toISOString().slice(0, 10);
const inYears = (n: number) => {
  const d = new Date();
  d.setUTCFullYear(d.getUTCFullYear() + n);
  return d.toISOString().slice(0, 10);
};

/** The last day it takes registrations (null: no closing date). */
function ClosesOnField({ control }: { control: Ctl }) {
  const { field, fieldState } = useController({ control, name: 'closes_on' });
  const label = 'Closing date';
  useFieldLabel('closes_on', label);
  return (
    <Box id="closes_on" data-field="closes_on">
      <DateSelector
        label={label}
        description="The last day it takes registrations; leave empty for none"
        required={false}
        value={typeof field.value === 'string' ? field.value : null}
        min={today()}
        max={inYears(5)}
        onChange={(v) => {
          field.onChange(v ?? null);
          field.onBlur();
        }}
        error={fieldState.error?.message}
      />
    </Box>
  );
}

/**
 * A portal's fields: where it is published (segment, path), what it says (title,
 * introduction), who pays, the details it asks, and whether it takes registrations.
 */
export function RegPortalFields({ control }: { control: Ctl }) {
  return (
    <Stack gap="xl">
      <Stack gap="md">
        <Title order={3} size="h4">
          Where it is published
        </Title>
        <SegmentField control={control} />
        <TextField
          control={control}
          name="path"
          label="Path"
          description="Lowercase letters, digits and single hyphens, e.g. drivers-2027: it ends the public link"
          required
          size="md"
          maxLength={REG_PORTAL_PATH_MAX}
          transform={(v) => v.toLowerCase()}
          autoComplete="off"
        />
      </Stack>
      <Stack gap="md">
        <Title order={3} size="h4">
          What people read
        </Title>
        <TextField
          control={control}
          name="title"
          label="Title"
          required
          size="md"
          maxLength={REG_PORTAL_TITLE_MAX}
        />
        <TextareaField
          control={control}
          name="introduction"
          label="Introduction"
          description="Shown above what will be checked: who it is for, what happens next"
          size="md"
          autosize
          minRows={3}
          maxRows={10}
          maxLength={REG_PORTAL_INTRODUCTION_MAX}
        />
        <NativeSelectField
          control={control}
          name="payer"
          label="Who pays"
          description="The person registering pays your pricebook's price for the process's checks before the case starts"
          data={PAYER_OPTIONS}
        />
      </Stack>
      <Stack gap="md">
        <Stack gap={2}>
          <Title order={3} size="h4">
            What is asked at registration
          </Title>
          <Text size="sm" c="dimmed">
            First and last names and the email address are always asked: the link that confirms a
            registration is emailed.
          </Text>
        </Stack>
        <SimpleGrid cols={{ base: 1, sm: 2 }}>
          <NativeSelectField
            control={control}
            name="ask_dob"
            label="Date of birth"
            data={MODE_OPTIONS}
          />
          <NativeSelectField
            control={control}
            name="ask_phone"
            label="Phone number"
            data={MODE_OPTIONS}
          />
        </SimpleGrid>
      </Stack>
      <Stack gap="md">
        <Title order={3} size="h4">
          When it takes registrations
        </Title>
        <CheckboxField
          control={control}
          name="open"
          label="Open"
          description="A closed portal tells visitors it takes no registrations"
        />
        <SimpleGrid cols={{ base: 1, sm: 2 }}>
          <LimitField control={control} />
        </SimpleGrid>
        <ClosesOnField control={control} />
      </Stack>
    </Stack>
  );
}
