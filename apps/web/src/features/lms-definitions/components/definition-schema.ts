import {
  formatPence,
  LICENCE_FEE_MAX,
  licenceDefinitionCreate,
  licenceDefinitionUpdate,
} from '@kestrel/domain';
import { z } from 'zod';
import type { Definition } from '../api';

/**
 * A fee typed in pounds and held in pence: the contract's rule, its messages in pounds (the
 * contract's own speak of pence, which the person typing never sees).
 */
export const feeInPence = z
  .number({ error: 'Enter the fee in pounds, for example 150.00.' })
  .int('Enter the fee in pounds, for example 150.00.')
  .min(0, 'The fee cannot be negative.')
  .max(LICENCE_FEE_MAX, `The fee can be at most ${formatPence(LICENCE_FEE_MAX)}.`);

/** The add form: where the definition sits, its details and its requirements. */
export const definitionAddSchema = licenceDefinitionCreate.extend({
  sub_group: z.number({ error: 'Choose the sub-group.' }).int().min(1, 'Choose the sub-group.'),
  fee_pence: feeInPence,
});
export type DefinitionAddValues = z.input<typeof definitionAddSchema>;
export type DefinitionAdd = z.output<typeof definitionAddSchema>;

/** The details page: name, description, duration, fee, published. */
export const definitionDetailsSchema = licenceDefinitionUpdate
  .pick({ name: true, description: true, duration_years: true, is_published: true })
  .extend({ fee_pence: feeInPence });
export type DefinitionDetailsValues = z.input<typeof definitionDetailsSchema>;
export type DefinitionDetails = z.output<typeof definitionDetailsSchema>;

/** The requirements page: the checks, the documents and the declarations. */
export const definitionRequirementsSchema = licenceDefinitionUpdate.pick({
  requirements: true,
  documents: true,
  declarations: true,
});
export type DefinitionRequirementsValues = z.input<typeof definitionRequirementsSchema>;
export type DefinitionRequirements = z.output<typeof definitionRequirementsSchema>;

export const emptyDefinition: Omit<DefinitionAddValues, 'sub_group'> = {
  name: '',
  description: '',
  duration_years: 1,
  fee_pence: 0,
  requirements: [],
  documents: [],
  declarations: [],
  is_published: false,
};

export function definitionDetailsValues(d: Definition): DefinitionDetailsValues {
  const { name, description, duration_years, fee_pence, is_published } = d;
  return { name, description, duration_years, fee_pence, is_published };
}

export function definitionRequirementsValues(d: Definition): DefinitionRequirementsValues {
  return {
    requirements: d.requirements.map((r) => ({
      activity_type: r.activity_type,
      config: r.config,
    })),
    documents: d.documents,
    declarations: d.declarations,
  };
}
