import { z } from 'zod';
import { MESSAGES } from './messages.js';
import { postcodeSchema } from './postcode.js';
import {
  freeTextSchema,
  optionalEmailSchema,
  optionalText,
  requiredFreeTextSchema,
} from './text-rules.js';

interface Option<V extends string> {
  value: V;
  label: string;
}
const values = <V extends string>(options: readonly Option<V>[]) =>
  options.map((o) => o.value) as [V, ...V[]];

/** Workforce of a criminal-record check (spec point 2). */
export const WORKFORCE_OPTIONS = [
  { value: 'O', label: 'Other' },
  { value: 'C', label: 'Child' },
  { value: 'A', label: 'Adult' },
  { value: 'CA', label: 'Child and Adult' },
] as const satisfies readonly Option<string>[];
export type Workforce = (typeof WORKFORCE_OPTIONS)[number]['value'];

/** True when the workforce includes adults (A or CA). */
export function workforceIncludesAdult(workforce: string | null | undefined): boolean {
  return workforce === 'A' || workforce === 'CA';
}

export const PURPOSE_OPTIONS = [
  { value: 'employment', label: 'Employment' },
  { value: 'volunteering', label: 'Volunteering' },
  { value: 'licence', label: 'Licence application' },
  { value: 'personal', label: 'Personal interest' },
  { value: 'other', label: 'Other' },
] as const satisfies readonly Option<string>[];

export const EMPLOYMENT_SECTORS = [
  { value: 'education', label: 'Education' },
  { value: 'health', label: 'Health' },
  { value: 'social-care', label: 'Social care' },
  { value: 'childcare', label: 'Childcare' },
  { value: 'transport', label: 'Transport' },
  { value: 'taxi-private-hire', label: 'Taxi and private hire' },
  { value: 'finance', label: 'Financial services' },
  { value: 'security', label: 'Security' },
  { value: 'retail', label: 'Retail' },
  { value: 'hospitality', label: 'Hospitality' },
  { value: 'construction', label: 'Construction' },
  { value: 'public-sector', label: 'Public sector' },
  { value: 'charity', label: 'Charity and voluntary' },
  { value: 'other', label: 'Other' },
] as const satisfies readonly Option<string>[];

/** Where the employer name on the certificate comes from. */
export const EMPLOYER_NAME_SOURCES = [
  { value: 'segment', label: 'Segment employer name' },
  { value: 'custom', label: 'Employer name' },
] as const satisfies readonly Option<string>[];

/** Online identity verification scheme types. */
export const SCHEME_TYPES = [
  { value: 'rtw', label: 'Right to work' },
  { value: 'rtr', label: 'Right to rent' },
  { value: 'dbs', label: 'DBS identity' },
  { value: 'rtw-dbs', label: 'Right to work and DBS identity' },
] as const satisfies readonly Option<string>[];

const flag = z.boolean().nullish();

/** The config fields of a case activity (spec point 3); every field optional. */
export const activityConfigSchema = z
  .object({
    purpose: z.enum(values(PURPOSE_OPTIONS)).nullish(),
    other_purpose: freeTextSchema,
    employment_sector: z.enum(values(EMPLOYMENT_SECTORS)).nullish(),
    employer_name_source: z.enum(values(EMPLOYER_NAME_SOURCES)).nullish(),
    employer_name: freeTextSchema,
    position: freeTextSchema,
    online_cert_email: optionalEmailSchema,
    paper_cert: flag,
    paper_cert_name: freeTextSchema,
    paper_cert_department: freeTextSchema,
    paper_cert_line_one: freeTextSchema,
    paper_cert_line_two: freeTextSchema,
    paper_cert_town: freeTextSchema,
    paper_cert_postcode: optionalText(postcodeSchema),
    workforce: z.enum(values(WORKFORCE_OPTIONS)).nullish(),
    volunteer: flag,
    adult_barred_list: flag,
    child_barred_list: flag,
    working_at_home_address: flag,
    collectors: z.array(requiredFreeTextSchema).max(20).nullish(),
    scheme_type: z.enum(values(SCHEME_TYPES)).nullish(),
    include_cpc: flag,
    include_tacho: flag,
  })
  .superRefine((config, ctx) => {
    const require = (field: keyof typeof config) => {
      if (!config[field])
        ctx.addIssue({ code: 'custom', message: MESSAGES.required, path: [field] });
    };
    if (config.purpose === 'other') require('other_purpose');
    if (config.employer_name_source === 'custom') require('employer_name');
    if (config.paper_cert) {
      for (const field of ['paper_cert_name', 'paper_cert_line_one', 'paper_cert_town'] as const) {
        require(field);
      }
      require('paper_cert_postcode');
    }
  });
export type ActivityConfig = z.infer<typeof activityConfigSchema>;
