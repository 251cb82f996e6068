import {
  birthDetailsFields,
  confirmationSchema,
  dbsAlternative,
  MESSAGES,
  needsDbsAlternative,
  refineCountryAlternative,
  refineDbsAlternative,
  refineDbsDetails,
  showsCounty,
} from '@kestrel/domain';
import { z } from 'zod';

/**
 * The criminal-record application form of the dbs-basic / dbs-standard / dbs-enhanced sections,
 * every rule from the domain: the '(for DBS)' values of the names the service cannot take, the
 * birth details (place checks, the country alternative), the identity verification route with
 * its date, and the declaration and consent ('Please confirm').
 */
export interface ApplicationForm {
  forename: string;
  forename_dbs: string;
  middlename: string;
  middlename_dbs: string;
  surname: string;
  surname_dbs: string;
  country: string;
  country_dbs: string;
  town: string;
  town_dbs: string;
  county: string;
  county_dbs: string;
  idv_option: string;
  video_call_date: string;
  in_person_expected_date: string;
  declaration: boolean;
}

export const APPLICATION_LABELS: Readonly<Record<string, string>> = {
  forename_dbs: 'First name (for DBS)',
  middlename_dbs: 'Middle name (for DBS)',
  surname_dbs: 'Last name (for DBS)',
  country: 'Country of birth',
  country_dbs: 'Country of birth (for DBS)',
  town: 'Town of birth',
  town_dbs: 'Town of birth (for DBS)',
  county: 'County of birth',
  county_dbs: 'County of birth (for DBS)',
  idv_option: 'How your identity will be checked',
  video_call_date: 'Date of the video call',
  in_person_expected_date: 'Date you expect to show your documents',
  declaration: 'Declaration and consent',
};

export const NAME_FIELDS = ['forename', 'middlename', 'surname'] as const;

/** The names of basic details that need a '(for DBS)' value. */
export const namesNeedingAlternative = (values: Partial<Record<string, string>>) =>
  NAME_FIELDS.filter((f) => needsDbsAlternative(values[f] ?? '', 'name'));

/** The rules across fields, run on their own so their messages show with the fields' at once. */
function refineApplication(d: Record<string, unknown>, ctx: z.RefinementCtx, today: string) {
  const str = (k: string) => {
    const v = d[k];
    return typeof v === 'string' ? v : '';
  };
  refineCountryAlternative(ctx, d);
  refineDbsAlternative(ctx, d, 'town', 'place');
  if (showsCounty(str('country'))) refineDbsAlternative(ctx, d, 'county', 'place');
  for (const field of NAME_FIELDS) refineDbsAlternative(ctx, d, field, 'name');
  refineDbsDetails(
    {
      idv_option: str('idv_option'),
      video_call_date: str('video_call_date') || null,
      in_person_expected_date: str('in_person_expected_date') || null,
    },
    ctx,
    today,
    true,
  );
}

/** `{field: message}` of the rules across fields (the form resolver's `extra`). */
export function applicationCrossChecks(values: object, today: string): Record<string, string> {
  const result = z
    .record(z.string(), z.unknown())
    .superRefine((d, ctx) => refineApplication(d, ctx, today))
    .safeParse(values);
  const out: Record<string, string> = {};
  if (result.success) return out;
  for (const issue of result.error.issues) {
    const key = issue.path.map(String).join('.');
    if (key && !(key in out)) out[key] = issue.message;
  }
  return out;
}

export function applicationSchema(today: string) {
  return birthDetailsFields
    .extend({
      forename: z.string(),
      forename_dbs: dbsAlternative(),
      middlename: z.string(),
      middlename_dbs: dbsAlternative(),
      surname: z.string(),
      surname_dbs: dbsAlternative(50),
      idv_option: z.string().min(1, MESSAGES.required),
      video_call_date: z.string(),
      in_person_expected_date: z.string(),
      declaration: confirmationSchema,
    })
    .superRefine((d, ctx) => refineApplication(d, ctx, today));
}
