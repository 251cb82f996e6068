import { zodResolver } from '@hookform/resolvers/zod';
import { type SegmentUpdate, segmentUpdate } from '@kestrel/domain';
import { SimpleGrid, Stack, TextInput, Title } from '@mantine/core';
import { type UseFormReturn, useForm } from 'react-hook-form';
import type { z } from 'zod';
import { PhoneField } from '../../../components/phone-field';
import type { Segment } from '../api';

/** What the add and details forms hold: every field as typed (contract: segmentUpdate). */
export type SegmentValues = z.input<typeof segmentUpdate>;

export const SEGMENT_FIELDS = [
  'name',
  'employer_name',
  'line_one',
  'line_two',
  'town',
  'postcode',
  'contact_name',
  'contact_email',
  'contact_phone',
] as const satisfies readonly (keyof SegmentValues)[];

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
 * The form of a segment: the domain's rules in the browser (the server's own), the values of
 * `segment` when it edits one.
 */
export function useSegmentForm(segment?: Segment) {
  return useForm<SegmentValues, unknown, SegmentUpdate>({
    resolver: zodResolver(segmentUpdate),
    mode: 'onTouched',
    ...(segment ? { values: segmentValues(segment) } : { defaultValues: emptySegment }),
  });
}

/** A segment's fields: name and employer name, address, contact. */
export function SegmentFields({
  form,
}: {
  form: UseFormReturn<SegmentValues, unknown, SegmentUpdate>;
}) {
  const reg = form.register;
  const errors = form.formState.errors;
  return (
    <Stack gap="md">
      <TextInput label="Name" required {...reg('name')} error={errors.name?.message} />
      <TextInput
        label="Employer name"
        description="The employer named on checks of this segment's cases when their configuration says 'segment employer name'"
        {...reg('employer_name')}
        error={errors.employer_name?.message}
      />
      <Title order={2} size="h4" mt="sm">
        Address
      </Title>
      <SimpleGrid cols={{ base: 1, sm: 2 }}>
        <TextInput
          label="Address line 1"
          autoComplete="address-line1"
          {...reg('line_one')}
          error={errors.line_one?.message}
        />
        <TextInput
          label="Address line 2"
          autoComplete="address-line2"
          {...reg('line_two')}
          error={errors.line_two?.message}
        />
        <TextInput
          label="Town"
          autoComplete="address-level2"
          {...reg('town')}
          error={errors.town?.message}
        />
        <TextInput
          label="Postcode"
          autoComplete="postal-code"
          {...reg('postcode')}
          error={errors.postcode?.message}
        />
      </SimpleGrid>
      <Title order={2} size="h4" mt="sm">
        Contact
      </Title>
      <SimpleGrid cols={{ base: 1, sm: 2 }}>
        <TextInput
          label="Contact name"
          autoComplete="name"
          {...reg('contact_name')}
          error={errors.contact_name?.message}
        />
        <TextInput
          label="Contact email"
          type="email"
          autoComplete="email"
          {...reg('contact_email')}
          error={errors.contact_email?.message}
        />
      </SimpleGrid>
      <PhoneField
        label="Contact phone"
        {...reg('contact_phone')}
        error={errors.contact_phone?.message}
      />
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
