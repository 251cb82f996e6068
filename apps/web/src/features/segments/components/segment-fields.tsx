import { type SegmentUpdate, segmentUpdate } from '@kestrel/domain';
import { SimpleGrid, Stack, Title } from '@mantine/core';
import type { Control } from 'react-hook-form';
import type { z } from 'zod';
import {
  EmailField,
  type KitFormState,
  PhoneNumberField,
  SingleAddressFields,
  TextField,
  useKitForm,
} from '../../../components/form-kit';
import { type Segment, segments } from '../api';

/** What the add and details forms hold: every field as typed (contract: segmentUpdate). */
export type SegmentValues = z.input<typeof segmentUpdate>;

export const emptySegment: SegmentValues = {
  name: '',
  employer_name: '',
  line_one: '',
  line_two: '',
  town: '',
  postcode: '',
  contact_name: '',
  contact_email: '',
  contact_phone: '',
};

/** The values of a segment as its forms start from them. */
export function segmentValues(s: Segment): SegmentValues {
  const { name, employer_name, line_one, line_two, town, postcode } = s;
  const { contact_name, contact_email, contact_phone } = s;
  return {
    name,
    employer_name,
    line_one,
    line_two,
    town,
    postcode,
    contact_name,
    contact_email,
    contact_phone,
  };
}

/**
 * The form of a segment (the kit's: the domain's rules in the browser, a 400 on the fields and
 * the summary), saved through /api/segments/ ('Successfully added segment', 'Error updating
 * segment', ...): a new one, or `segment` edited.
 */
export function useSegmentForm(
  segment: Segment | undefined,
  onSaved: (saved: Segment) => void,
): KitFormState<SegmentValues, SegmentUpdate> {
  const save = segments.useSave();
  return useKitForm({
    schema: segmentUpdate,
    defaultValues: segment ? segmentValues(segment) : emptySegment,
    submit: (values) => save.mutateAsync({ id: segment?.id, values }),
    onSaved,
  });
}

/** A segment's fields: name and employer name, address, contact. */
export function SegmentFields({
  control,
}: {
  control: Control<SegmentValues, unknown, SegmentUpdate>;
}) {
  return (
    <Stack gap="md">
      <TextField control={control} name="name" label="Name" required />
      <TextField
        control={control}
        name="employer_name"
        label="Employer name"
        description="The employer named on checks of this segment's cases when their configuration says 'segment employer name'"
      />
      <Title order={2} size="h4" mt="sm">
        Address
      </Title>
      <SingleAddressFields control={control} lookup="customer" />
      <Title order={2} size="h4" mt="sm">
        Contact
      </Title>
      <SimpleGrid cols={{ base: 1, sm: 2 }}>
        <TextField control={control} name="contact_name" label="Contact name" autoComplete="name" />
        <EmailField control={control} name="contact_email" label="Contact email" />
      </SimpleGrid>
      <PhoneNumberField control={control} name="contact_phone" label="Contact phone" />
    </Stack>
  );
}

/** The address's lines that are filled in (lines, town, postcode). */
export function addressLines(s: Pick<Segment, 'line_one' | 'line_two' | 'town' | 'postcode'>) {
  return [s.line_one, s.line_two, s.town, s.postcode].map((l) => l.trim()).filter(Boolean);
}

/** Where a segment is: its town and postcode, or a dash. */
export function placeOf(s: Pick<Segment, 'town' | 'postcode'>): string {
  return [s.town, s.postcode].filter(Boolean).join(', ') || '—';
}
