import { describe, expect, it } from 'vitest';
import {
  applicationPortalCreate,
  licenceActionInput,
  licenceCreate,
  licenceDefinitionCreate,
  licenceGroupCreate,
  licenceNumberFormatInput,
  licenceSubGroupCreate,
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
