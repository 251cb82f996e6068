export const GENDERS = ['male', 'female'] as const;
export type Gender = (typeof GENDERS)[number];
export const GENDER_OPTIONS: ReadonlyArray<{ value: Gender; label: string }> = [
  { value: 'male', label: 'Male' },
  { value: 'female', label: 'Female' },
];

/** Every title, in picker order. */
export const TITLES = [
  'Miss',
  'Mr',
  'Mrs',
  'Ms',
  'Mx',
  'Dr',
  'Professor',
  'Rev',
  'Sir',
  'Dame',
  'Lord',
  'Lady',
] as const;
export type Title = (typeof TITLES)[number];

const MALE_ONLY: readonly Title[] = ['Mr', 'Sir', 'Lord'];
const FEMALE_ONLY: readonly Title[] = ['Miss', 'Mrs', 'Ms', 'Dame', 'Lady'];

/** The titles offered for a gender; every title when the gender is not chosen yet. */
export function titlesForGender(gender: string | null | undefined): readonly Title[] {
  if (gender === 'male') return TITLES.filter((t) => !FEMALE_ONLY.includes(t));
  if (gender === 'female') return TITLES.filter((t) => !MALE_ONLY.includes(t));
  return TITLES;
}

/** The parts of a name and their '(for DBS)' alternatives, as case data and other names hold them. */
export interface NameWithDbs {
  forename: string;
  middlename?: string | null;
  surname: string;
  forename_dbs?: string | null;
  middlename_dbs?: string | null;
  surname_dbs?: string | null;
}

/**
 * The name as the criminal-record service is given it (each part's '(for DBS)' value where there
 * is one), or null when no part has one (the name is sent as it is).
 */
export function nameForDbs(n: NameWithDbs): string | null {
  if (!n.forename_dbs && !n.middlename_dbs && !n.surname_dbs) return null;
  return [
    n.forename_dbs || n.forename,
    n.middlename_dbs || n.middlename,
    n.surname_dbs || n.surname,
  ]
    .filter(Boolean)
    .join(' ');
}
