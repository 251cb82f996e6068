import {
  APPLICATION_KIND_LABELS,
  APPLICATION_KINDS,
  applicationPortalUpdate,
} from '@kestrel/domain';
import { SimpleGrid, Stack } from '@mantine/core';
import type { Control } from 'react-hook-form';
import type { z } from 'zod';
import {
  CheckboxField,
  NativeSelectField,
  TextareaField,
  TextField,
} from '../../../components/form-kit';
import type { Definition, Portal } from '../api';
import { feeInPence } from './definition-schema';
import { PoundsField } from './number-fields';

/** A portal's form (add and edit): the contract's rules, the fee's messages in pounds. */
export const portalSchema = applicationPortalUpdate.extend({ fee_pence: feeInPence });
export type PortalValues = z.input<typeof portalSchema>;
export type PortalSaved = z.output<typeof portalSchema>;

/** A new portal of `definition`: open for new applicants at the definition's fee. */
export function newPortalValues(definition: Definition): PortalValues {
  return {
    title: `Apply for a ${definition.name.toLowerCase()}`.slice(0, 100),
    introduction: '',
    is_open: true,
    kind: 'new',
    fee_pence: definition.fee_pence,
  };
}

export function portalValues(p: Portal): PortalValues {
  const { title, introduction, is_open, kind, fee_pence } = p;
  return { title, introduction, is_open, kind, fee_pence };
}

const KIND_OPTIONS = APPLICATION_KINDS.map((k) => ({
  value: k,
  label: APPLICATION_KIND_LABELS[k],
}));

/** A portal's fields: title, introduction, new or renewal, fee, open. */
export function PortalFields({
  control,
}: {
  control: Control<PortalValues, unknown, PortalSaved>;
}) {
  return (
    <Stack gap="md">
      <TextField control={control} name="title" label="Title" required size="md" />
      <TextareaField
        control={control}
        name="introduction"
        label="Introduction"
        description="What applicants read first on the portal's public page"
        autosize
        minRows={3}
        size="md"
      />
      <SimpleGrid cols={{ base: 1, sm: 2 }}>
        <NativeSelectField
          control={control}
          name="kind"
          label="Applications"
          description="New applicants, or holders renewing their licence"
          data={KIND_OPTIONS}
        />
        <PoundsField
          control={control}
          name="fee_pence"
          label="Fee"
          description="In pounds, paid when applying"
          required
        />
      </SimpleGrid>
      <CheckboxField
        control={control}
        name="is_open"
        label="Open"
        description="People can apply on an open portal; a closed one says so on its page"
      />
    </Stack>
  );
}
