import type { ActivityConfig } from '@kestrel/domain';

export type ConfigField = keyof ActivityConfig;

const DBS_COMMON: ConfigField[] = [
  'purpose',
  'other_purpose',
  'employment_sector',
  'employer_name_source',
  'employer_name',
  'position',
  'online_cert_email',
  'paper_cert',
  'paper_cert_name',
  'paper_cert_department',
  'paper_cert_line_one',
  'paper_cert_line_two',
  'paper_cert_town',
  'paper_cert_postcode',
  'volunteer',
];

/** Which activity configuration fields (spec point 3) each kind of check uses. */
export const CONFIG_FIELDS_BY_KIND: Record<string, ConfigField[]> = {
  'dbs-basic': DBS_COMMON,
  'dbs-standard': [...DBS_COMMON, 'workforce'],
  'dbs-enhanced': [
    ...DBS_COMMON,
    'workforce',
    'adult_barred_list',
    'child_barred_list',
    'working_at_home_address',
  ],
  'document-collection': ['collectors'],
  'online-idv': ['scheme_type'],
  'driver-data': ['include_cpc', 'include_tacho'],
};

export const CONFIG_LABELS: Record<ConfigField, string> = {
  purpose: 'Purpose',
  other_purpose: 'Other purpose',
  employment_sector: 'Employment sector',
  employer_name_source: 'Employer name source',
  employer_name: 'Employer name',
  position: 'Position',
  online_cert_email: 'Online certificate email',
  paper_cert: 'Paper certificate',
  paper_cert_name: 'Certificate recipient name',
  paper_cert_department: 'Department',
  paper_cert_line_one: 'Address line one',
  paper_cert_line_two: 'Address line two',
  paper_cert_town: 'Town',
  paper_cert_postcode: 'Postcode',
  workforce: 'Workforce',
  volunteer: 'Volunteer',
  adult_barred_list: 'Working with vulnerable adults (adult barred list)',
  child_barred_list: 'Working with children (children barred list)',
  working_at_home_address: 'Working at home address',
  collectors: 'Document collectors',
  scheme_type: 'Scheme type',
  include_cpc: 'Include CPC',
  include_tacho: 'Include tacho cards',
};

/** Fields shown only when another field has a given value. */
export function isFieldShown(field: ConfigField, config: ActivityConfig): boolean {
  if (field === 'other_purpose') return config.purpose === 'other';
  if (field === 'employer_name') return config.employer_name_source === 'custom';
  if (field.startsWith('paper_cert_')) return Boolean(config.paper_cert);
  return true;
}
