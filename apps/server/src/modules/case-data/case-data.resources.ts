import {
  caseAddressCreate,
  caseAddressIn,
  caseAddressListOut,
  caseAddressOut,
  caseAddressPatch,
  caseBasicDetailsCreate,
  caseBasicDetailsIn,
  caseBasicDetailsOut,
  caseBasicDetailsPatch,
  caseBasicDetailsUpdate,
  caseBirthDetailsCreate,
  caseBirthDetailsIn,
  caseBirthDetailsOut,
  caseBirthDetailsPatch,
  caseBirthDetailsUpdate,
  caseDbsUpdateDetailsCreate,
  caseDbsUpdateDetailsIn,
  caseDbsUpdateDetailsOut,
  caseDbsUpdateDetailsPatch,
  caseDbsUpdateDetailsUpdate,
  caseDrivingLicenceCreate,
  caseDrivingLicenceIn,
  caseDrivingLicenceOut,
  caseDrivingLicencePatch,
  caseDrivingLicenceUpdate,
  caseOtherNameCreate,
  caseOtherNameIn,
  caseOtherNameListOut,
  caseOtherNameOut,
  caseOtherNamePatch,
  casePassportCreate,
  casePassportIn,
  casePassportOut,
  casePassportPatch,
  casePassportUpdate,
  type LicencePerson,
} from '@kestrel/domain';
import type { z } from 'zod';

// The seven case-data resources as data: their table, fields, contracts and rules. The service
// (case-data.service.ts) and the routes (case-data.routes.ts) work from these, so each resource
// has the same behaviour for every audience.

/** How a field is stored: text ('' when blank), a date (null), a flag, or JSON. */
export type FieldKind = 'text' | 'date' | 'bool' | 'json';

/** What the service stores and answers: API field names, which are also the column names. */
export type Record_ = Record<string, unknown>;

interface Common {
  /** The path segment: /api/{path}/. */
  path: string;
  /** The SQL table (column names = API field names). */
  table: string;
  /** `app_label.model` of its audit rows. */
  contentType: string;
  /** The item's name in audit rows ('basic details'). */
  item: string;
  /** The editable fields (source, ids and locks are not). */
  fields: Readonly<Record<string, FieldKind>>;
  /** Every rule on the merged record, on `today`; the licence also checks its holder. */
  rules: (today: string, holder: LicencePerson) => z.ZodType;
  patch: z.ZodType;
  out: z.ZodType;
}

/** A record one per case, keyed by the case id (retrieve, create, update, patch, delete). */
export interface SingleResource extends Common {
  kind: 'single';
  create: z.ZodType;
  update: z.ZodType;
  /** `blank`: answered blank (basic details prefilled from the subject) until saved; else 404. */
  missing: 'blank' | 'not-found';
  /** Field-level locks in `idsp_fields` (details), or a whole record locked by `source`. */
  locks: 'fields' | 'source' | 'none';
  /** Needs the holder (the case's basic details) to check the record. */
  needsHolder?: boolean;
}

/** Many records per case, each with its own id (list by case, create, retrieve, patch, delete). */
export interface ListResource extends Common {
  kind: 'list';
  create: z.ZodType;
  listOut: z.ZodType;
  locks: 'source' | 'none';
  /** List order, SQL on the alias `r` (newest first for addresses). */
  order: string;
  /** The list carries the gaps of the last 60 months. */
  gaps?: boolean;
}

export type CaseDataResource = SingleResource | ListResource;

const NAMES = {
  forename: 'text',
  forename_dbs: 'text',
  middlename: 'text',
  middlename_dbs: 'text',
  surname: 'text',
  surname_dbs: 'text',
} as const;

export const basicDetails: SingleResource = {
  kind: 'single',
  path: 'case-basic-details',
  table: 'case_basic_details',
  contentType: 'cases.casebasicdetails',
  item: 'basic details',
  fields: {
    gender: 'text',
    title: 'text',
    ...NAMES,
    email_dbs: 'text',
    dob: 'date',
    phone_number: 'text',
    nin: 'text',
    nationality: 'text',
    online_idv: 'bool',
  },
  rules: (today) => caseBasicDetailsIn(today),
  create: caseBasicDetailsCreate,
  update: caseBasicDetailsUpdate,
  patch: caseBasicDetailsPatch,
  out: caseBasicDetailsOut,
  missing: 'blank',
  locks: 'fields',
};

export const birthDetails: SingleResource = {
  kind: 'single',
  path: 'case-birth-details',
  table: 'case_birth_details',
  contentType: 'cases.casebirthdetails',
  item: 'birth details',
  fields: {
    country: 'text',
    country_dbs: 'text',
    town: 'text',
    town_dbs: 'text',
    county: 'text',
    county_dbs: 'text',
  },
  rules: () => caseBirthDetailsIn(),
  create: caseBirthDetailsCreate,
  update: caseBirthDetailsUpdate,
  patch: caseBirthDetailsPatch,
  out: caseBirthDetailsOut,
  missing: 'blank',
  locks: 'fields',
};

const DOCUMENT = {
  country: 'text',
  country_dbs: 'text',
  dob: 'date',
  issue_date: 'date',
  expiry_date: 'date',
} as const;

export const passports: SingleResource = {
  kind: 'single',
  path: 'case-passports',
  table: 'case_passports',
  contentType: 'cases.casepassport',
  item: 'passport',
  fields: { number: 'text', ...DOCUMENT },
  rules: (today) => casePassportIn(today),
  create: casePassportCreate,
  update: casePassportUpdate,
  patch: casePassportPatch,
  out: casePassportOut,
  missing: 'not-found',
  locks: 'source',
};

export const drivingLicences: SingleResource = {
  kind: 'single',
  path: 'case-driving-licences',
  table: 'case_driving_licences',
  contentType: 'cases.casedrivinglicence',
  item: 'driving licence',
  fields: { licence_type: 'text', number: 'text', ...DOCUMENT, no_surname: 'bool' },
  rules: (today, holder) => caseDrivingLicenceIn(today, holder),
  create: caseDrivingLicenceCreate,
  update: caseDrivingLicenceUpdate,
  patch: caseDrivingLicencePatch,
  out: caseDrivingLicenceOut,
  missing: 'not-found',
  locks: 'source',
  needsHolder: true,
};

export const dbsUpdateDetails: SingleResource = {
  kind: 'single',
  path: 'case-dbs-update-details',
  table: 'case_dbs_update_details',
  contentType: 'cases.casedbsupdatedetails',
  item: 'DBS update details',
  fields: { certificate_number: 'text', surname: 'text', dob: 'date' },
  rules: (today) => caseDbsUpdateDetailsIn(today),
  create: caseDbsUpdateDetailsCreate,
  update: caseDbsUpdateDetailsUpdate,
  patch: caseDbsUpdateDetailsPatch,
  out: caseDbsUpdateDetailsOut,
  missing: 'not-found',
  locks: 'none',
};

export const otherNames: ListResource = {
  kind: 'list',
  path: 'case-other-names',
  table: 'case_other_names',
  contentType: 'cases.caseothername',
  item: 'other name',
  fields: { ...NAMES, from_date: 'date', to_date: 'date' },
  rules: (today) => caseOtherNameIn(today),
  create: caseOtherNameCreate,
  patch: caseOtherNamePatch,
  out: caseOtherNameOut,
  listOut: caseOtherNameListOut,
  locks: 'none',
  order: 'r.from_date, r.id',
};

export const addresses: ListResource = {
  kind: 'list',
  path: 'case-addresses',
  table: 'case_addresses',
  contentType: 'cases.caseaddress',
  item: 'address',
  fields: {
    country: 'text',
    country_dbs: 'text',
    line_one: 'text',
    line_one_dbs: 'text',
    line_two: 'text',
    line_two_dbs: 'text',
    town: 'text',
    town_dbs: 'text',
    postcode: 'text',
    from_date: 'date',
    to_date: 'date',
    current: 'bool',
    metadata: 'json',
    source: 'text',
  },
  rules: (today) => caseAddressIn(today),
  create: caseAddressCreate,
  patch: caseAddressPatch,
  out: caseAddressOut,
  listOut: caseAddressListOut,
  locks: 'source',
  order: 'r.current desc, r.from_date desc, r.id desc',
  gaps: true,
};

export const SINGLE_RESOURCES = [
  basicDetails,
  birthDetails,
  passports,
  drivingLicences,
  dbsUpdateDetails,
] as const;
export const LIST_RESOURCES = [otherNames, addresses] as const;

/** The content types of the case data's audit rows. */
export const CASE_DATA_CONTENT_TYPES = [...SINGLE_RESOURCES, ...LIST_RESOURCES].map(
  (r) => r.contentType,
);
