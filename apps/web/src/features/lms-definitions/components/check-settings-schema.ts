import {
  type ActivityConfig,
  activityConfigSchema,
  EMPLOYER_NAME_SOURCES,
  EMPLOYMENT_SECTORS,
  isRequirementFieldShown,
  PURPOSE_OPTIONS,
  REQUIREMENT_CONFIG_LABELS,
  type RequirementConfigField,
  requirementConfigFields,
  SCHEME_TYPES,
  WORKFORCE_OPTIONS,
} from '@kestrel/domain';
import { z } from 'zod';

/** The settings chosen from a list, with their choices. */
export const SETTING_CHOICES: Partial<
  Record<RequirementConfigField, readonly { value: string; label: string }[]>
> = {
  purpose: PURPOSE_OPTIONS,
  employment_sector: EMPLOYMENT_SECTORS,
  employer_name_source: EMPLOYER_NAME_SOURCES,
  workforce: WORKFORCE_OPTIONS,
  scheme_type: SCHEME_TYPES,
};

/** The yes/no settings. */
export const SETTING_FLAGS: readonly RequirementConfigField[] = [
  'paper_cert',
  'volunteer',
  'adult_barred_list',
  'child_barred_list',
  'working_at_home_address',
  'include_cpc',
  'include_tacho',
];

export type SettingKind = 'choice' | 'flag' | 'list' | 'text';
export const settingKind = (f: RequirementConfigField): SettingKind =>
  SETTING_CHOICES[f]
    ? 'choice'
    : SETTING_FLAGS.includes(f)
      ? 'flag'
      : f === 'collectors'
        ? 'list'
        : 'text';

const text = z.string();
/**
 * What the editor holds: every setting of spec point 3 as the inputs give it (text and choices
 * as strings, '' for none; yes/no as booleans; the collectors as a list of names).
 */
const configFormShape = z.object({
  purpose: text,
  other_purpose: text,
  employment_sector: text,
  employer_name_source: text,
  employer_name: text,
  position: text,
  online_cert_email: text,
  paper_cert: z.boolean(),
  paper_cert_name: text,
  paper_cert_department: text,
  paper_cert_line_one: text,
  paper_cert_line_two: text,
  paper_cert_town: text,
  paper_cert_postcode: text,
  workforce: text,
  volunteer: z.boolean(),
  adult_barred_list: z.boolean(),
  child_barred_list: z.boolean(),
  working_at_home_address: z.boolean(),
  collectors: z.array(z.string()),
  scheme_type: text,
  include_cpc: z.boolean(),
  include_tacho: z.boolean(),
});
export type ConfigFormValues = z.input<typeof configFormShape>;

/**
 * The configuration the editor sends for a check of `kind`: the settings its kind takes and
 * shows now (a hidden dependent setting is dropped), '' as no value; then spec point 3's rules
 * (the contract's schema), so the browser says what the server would.
 */
export function checkSettingsSchema(kind: string) {
  const fields = requirementConfigFields(kind);
  const config = configFormShape
    .transform((v) => {
      const out: Record<string, unknown> = {};
      for (const f of fields) {
        if (!isRequirementFieldShown(f, v)) continue;
        const value = v[f];
        if (typeof value === 'string') {
          if (value.trim() !== '') out[f] = value;
        } else if (Array.isArray(value)) {
          if (value.length > 0) out[f] = value;
        } else out[f] = value;
      }
      return out;
    })
    .pipe(activityConfigSchema);
  return z.object({ config });
}
export type CheckSettingsValues = { config: ConfigFormValues };
export type CheckSettings = { config: ActivityConfig };

/** The editor's values from a stored configuration (absent settings as empty inputs). */
export function checkSettingsValues(config: Record<string, unknown>): CheckSettingsValues {
  const str = (k: string) => (typeof config[k] === 'string' ? String(config[k]) : '');
  const flag = (k: string) => config[k] === true;
  return {
    config: {
      purpose: str('purpose'),
      other_purpose: str('other_purpose'),
      employment_sector: str('employment_sector'),
      employer_name_source: str('employer_name_source'),
      employer_name: str('employer_name'),
      position: str('position'),
      online_cert_email: str('online_cert_email'),
      paper_cert: flag('paper_cert'),
      paper_cert_name: str('paper_cert_name'),
      paper_cert_department: str('paper_cert_department'),
      paper_cert_line_one: str('paper_cert_line_one'),
      paper_cert_line_two: str('paper_cert_line_two'),
      paper_cert_town: str('paper_cert_town'),
      paper_cert_postcode: str('paper_cert_postcode'),
      workforce: str('workforce'),
      volunteer: flag('volunteer'),
      adult_barred_list: flag('adult_barred_list'),
      child_barred_list: flag('child_barred_list'),
      working_at_home_address: flag('working_at_home_address'),
      collectors: Array.isArray(config.collectors) ? config.collectors.map(String) : [],
      scheme_type: str('scheme_type'),
      include_cpc: flag('include_cpc'),
      include_tacho: flag('include_tacho'),
    },
  };
}

/**
 * A stored configuration in words: 'Workforce: Child and Adult', a yes/no setting by its name
 * when on; nothing for a setting not set.
 */
export function settingsSummary(kind: string, config: Record<string, unknown>): string[] {
  const out: string[] = [];
  for (const f of requirementConfigFields(kind)) {
    const v = config[f];
    if (v === undefined || v === null || v === '' || v === false) continue;
    if (Array.isArray(v)) {
      if (v.length > 0) out.push(`${labelOf(f)}: ${v.join(', ')}`);
      continue;
    }
    const choices = SETTING_CHOICES[f];
    out.push(
      v === true
        ? labelOf(f)
        : `${labelOf(f)}: ${choices?.find((c) => c.value === v)?.label ?? String(v)}`,
    );
  }
  return out;
}

const labelOf = (f: RequirementConfigField) => REQUIREMENT_CONFIG_LABELS[f];
