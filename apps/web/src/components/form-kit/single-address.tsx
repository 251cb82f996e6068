import { SimpleGrid, Stack } from '@mantine/core';
import { type Control, type FieldValues, type Path, useController } from 'react-hook-form';
import type { CaseDataAudience } from '../../api/case-data';
import { AddressLookup } from './address-lookup';
import { TextField } from './fields';

/** The values of a plain address (an organisation's or a segment's): every line optional. */
export interface SingleAddressValues {
  line_one: string;
  line_two: string;
  town: string;
  postcode: string;
}

export const EMPTY_SINGLE_ADDRESS: SingleAddressValues = {
  line_one: '',
  line_two: '',
  town: '',
  postcode: '',
};

/**
 * A plain single-address editor (lines, town, postcode): no history, no dates, no DBS
 * alternatives. The fields are `line_one`, `line_two`, `town`, `postcode` at the form's top, or
 * under `prefix` ('address.' for a nested object). With `lookup` (the audience whose lookup
 * serves it) the postcode lookup above fills them; the postcode is upper-cased as typed.
 */
export function SingleAddressFields<T extends FieldValues, O = T>({
  control,
  prefix = '',
  lookup,
  required = false,
  readOnly = false,
}: {
  control: Control<T, unknown, O>;
  prefix?: string;
  lookup?: CaseDataAudience;
  /** Whether the first line and town are required (shown with the asterisk). */
  required?: boolean;
  readOnly?: boolean;
}) {
  const name = (field: keyof SingleAddressValues) => `${prefix}${field}` as Path<T>;
  const postcode = useController({ control, name: name('postcode') });
  const lineOne = useController({ control, name: name('line_one') });
  const lineTwo = useController({ control, name: name('line_two') });
  const town = useController({ control, name: name('town') });
  return (
    <Stack gap="md" data-testid="single-address">
      {lookup && !readOnly && (
        <AddressLookup
          audience={lookup}
          onChoose={(a) => {
            lineOne.field.onChange(a.line_one);
            lineTwo.field.onChange(a.line_two);
            town.field.onChange(a.town);
            postcode.field.onChange(a.postcode);
          }}
        />
      )}
      <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="md">
        <TextField
          control={control}
          name={name('line_one')}
          label="Address line 1"
          autoComplete="address-line1"
          required={required}
          readOnly={readOnly}
        />
        <TextField
          control={control}
          name={name('line_two')}
          label="Address line 2"
          autoComplete="address-line2"
          readOnly={readOnly}
        />
        <TextField
          control={control}
          name={name('town')}
          label="Town"
          autoComplete="address-level2"
          required={required}
          readOnly={readOnly}
        />
        <TextField
          control={control}
          name={name('postcode')}
          label="Postcode"
          autoComplete="postal-code"
          readOnly={readOnly}
          transform={(v) => v.toUpperCase()}
        />
      </SimpleGrid>
    </Stack>
  );
}
