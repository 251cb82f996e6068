import { describe, expect, it } from 'vitest';
import {
  applicationPortalCreate,
  isRequirementFieldShown,
  licenceActionInput,
  licenceCreate,
  licenceDefinitionCreate,
  licenceGroupCreate,
  licenceNumberFormatInput,
  licenceSubGroupCreate,
  requirementConfigFields,
  requirementSettingNotUsed,
  setRequirementFields,
} from './lms.js';

const messages = (r: {
  success: boolean;
  error?: { issues: { path: PropertyKey[]; message: string }[] };
}) => Object.fromEntries((r.error?.issues ?? []).map((i) => [i.path.join('.'), i.message]));

describe('licensing contracts', () => {
  it('creates a group with defaults and requires a name', () => {
    expect(licenceGroupCreate.parse({ name: ' Taxi and private hire ' })).toEqual({
      name: 'Taxi and private hire',
      description: '',
      is_published: false,
    });
    expect(messages(licenceGroupCreate.safeParse({ name: ' ' }))).toEqual({ name: 'Required' });
  });
  it('uppercases a sub-group code and refuses other characters', () => {
    expect(licenceSubGroupCreate.parse({ group: 1, name: 'Vehicle', code: 'veh' }).code).toBe(
      'VEH',
    );
    expect(messages(licenceSubGroupCreate.safeParse({ group: 1, name: 'V', code: 'V-1' }))).toEqual(
      {
        code: 'Use 1 to 10 letters or digits.',
      },
    );
  });
  it('checks a definition duration and fee', () => {
    const ok = licenceDefinitionCreate.parse({
      sub_group: 2,
      name: 'Hackney carriage driver (3 years)',
      duration_years: 3,
      fee_pence: 25000,
      requirements: [{ activity_type: 'dbs-enhanced' }],
    });
    expect(ok.requirements).toEqual([{ activity_type: 'dbs-enhanced', config: {} }]);
    expect(ok.documents).toEqual([]);
    expect(
      messages(
        licenceDefinitionCreate.safeParse({
          sub_group: 2,
          name: 'X',
          duration_years: 9,
          fee_pence: -1,
        }),
      ),
    ).toEqual({
      duration_years: 'Ensure this value is less than or equal to 5.',
      fee_pence: 'Ensure this value is greater than or equal to 0.',
    });
  });
  it('defaults a portal to a closed new application', () => {
    expect(applicationPortalCreate.parse({ title: 'Apply', fee_pence: 0 })).toMatchObject({
      is_open: false,
      kind: 'new',
    });
    expect(
      messages(applicationPortalCreate.safeParse({ title: 'A', fee_pence: 0, kind: 'x' })),
    ).toEqual({
      kind: 'Choose new or renewal.',
    });
  });
  it('checks a licence number and requires a reason for an action', () => {
    expect(licenceCreate.parse({ definition: 1, holder: 2, number: 'ngc/1' }).number).toBe('NGC/1');
    expect(messages(licenceCreate.safeParse({ definition: 1, holder: 2, number: 'NGC/' }))).toEqual(
      {
        number: 'Invalid format',
      },
    );
    expect(messages(licenceActionInput.safeParse({ reason: '  ' }))).toEqual({
      reason: 'Required',
    });
  });
  it('checks a council number format', () => {
    expect(licenceNumberFormatInput.parse('ngc/{YYYY}/{SEQ}')).toBe('NGC/{YYYY}/{SEQ}');
    expect(licenceNumberFormatInput.safeParse('NGC').success).toBe(false);
  });
});

describe("a licence check's settings", () => {
  it('lists the settings each kind takes, none for a kind without settings', () => {
    expect(requirementConfigFields('driver-data')).toEqual(['include_cpc', 'include_tacho']);
    expect(requirementConfigFields('dbs-enhanced')).toContain('child_barred_list');
    expect(requirementConfigFields('dbs-basic')).not.toContain('workforce');
    expect(requirementConfigFields('knowledge-test')).toEqual([]);
  });

  it('shows a dependent setting only when the field it depends on holds its value', () => {
    expect(isRequirementFieldShown('other_purpose', { purpose: 'other' })).toBe(true);
    expect(isRequirementFieldShown('other_purpose', { purpose: 'employment' })).toBe(false);
    expect(isRequirementFieldShown('employer_name', { employer_name_source: 'custom' })).toBe(true);
    expect(isRequirementFieldShown('employer_name', {})).toBe(false);
    const paper = requirementConfigFields('dbs-enhanced').find((f) => f.startsWith('paper_cert_'));
    expect(paper).toBeDefined();
    if (paper) {
      expect(isRequirementFieldShown(paper, { paper_cert: true })).toBe(true);
      expect(isRequirementFieldShown(paper, { paper_cert: false })).toBe(false);
    }
    expect(isRequirementFieldShown('include_cpc', {})).toBe(true);
  });

  it('names a setting the kind does not take, and keeps only the settings holding a value', () => {
    expect(requirementSettingNotUsed('Driver data')).toBe(
      'This setting does not apply to the Driver data check.',
    );
    expect(
      setRequirementFields({
        include_cpc: true,
        include_tacho: false,
        collectors: [],
        employer_name: '',
        other_purpose: undefined,
        purpose: null,
      }),
    ).toEqual(['include_cpc', 'include_tacho']);
  });
});
