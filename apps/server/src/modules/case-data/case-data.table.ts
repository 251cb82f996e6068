import { sql } from 'drizzle-orm';
import {
  boolean,
  date,
  foreignKey,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
  uniqueIndex,
  varchar,
} from 'drizzle-orm/pg-core';
import { createdAt, customerIdColumn, idColumn, tstz } from '../../db/columns.js';
import { cases } from '../cases/cases.table.js';
import { customers } from '../customers/customers.table.js';

// The case data of spec point 3: what every check is made from. Each table is tenant-owned
// (customer_id, forced RLS) and carries `case_id`, so a subject session sees the rows of its own
// cases only (db/security.ts). One row per case for the details and documents (keyed by the
// case), many for other names and addresses. `source` 'idsp' (the online identity check) locks
// a row; `idsp_fields` lock single fields of the details.

const str = (name: string, length: number) => varchar(name, { length }).notNull().default('');
const day = (name: string) => date(name, { mode: 'string' });
const updatedAt = () => tstz('updated_at').notNull().defaultNow();
const lockedFields = () => text('idsp_fields').array().notNull().default(sql`'{}'::text[]`);
// Encrypted at rest (modules/encryption/field-cipher.ts, decision 027): the ciphertext
// `f1:<key id>:<base64url>` fits 256 characters for the values of at most 30 characters the contracts allow;
// `*_hash` is its keyed hash (hex) for exact-match search, '' for a blank value.
const encrypted = (name: string) => str(name, 256);
const hashOf = (name: string) => str(name, 64);

/** Basic details of the person checked (the email is the subject's, not stored here). */
export const caseBasicDetails = pgTable(
  'case_basic_details',
  {
    customerId: customerIdColumn().references(() => customers.id, { onDelete: 'cascade' }),
    caseId: integer('case_id').notNull(),
    gender: str('gender', 10),
    title: str('title', 20),
    forename: str('forename', 60),
    forenameDbs: str('forename_dbs', 60),
    middlename: str('middlename', 60),
    middlenameDbs: str('middlename_dbs', 60),
    surname: str('surname', 50),
    surnameDbs: str('surname_dbs', 50),
    emailDbs: str('email_dbs', 100),
    dob: day('dob'),
    phoneNumber: str('phone_number', 40),
    nin: encrypted('nin'),
    ninHash: hashOf('nin_hash'),
    nationality: str('nationality', 3),
    onlineIdv: boolean('online_idv').notNull().default(false),
    idspFields: lockedFields(),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    primaryKey({ columns: [t.customerId, t.caseId] }),
    foreignKey({
      name: 'case_basic_details_case_fk',
      columns: [t.customerId, t.caseId],
      foreignColumns: [cases.customerId, cases.id],
    }).onDelete('cascade'),
    index('case_basic_details_nin_hash_idx')
      .on(t.customerId, t.ninHash)
      .where(sql`${t.ninHash} <> ''`),
  ],
);

/** Where the person was born. */
export const caseBirthDetails = pgTable(
  'case_birth_details',
  {
    customerId: customerIdColumn().references(() => customers.id, { onDelete: 'cascade' }),
    caseId: integer('case_id').notNull(),
    country: str('country', 3),
    countryDbs: str('country_dbs', 3),
    town: str('town', 60),
    townDbs: str('town_dbs', 60),
    county: str('county', 60),
    countyDbs: str('county_dbs', 60),
    idspFields: lockedFields(),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    primaryKey({ columns: [t.customerId, t.caseId] }),
    foreignKey({
      name: 'case_birth_details_case_fk',
      columns: [t.customerId, t.caseId],
      foreignColumns: [cases.customerId, cases.id],
    }).onDelete('cascade'),
  ],
);

/** Other names the person has used, with the period of each. */
export const caseOtherNames = pgTable(
  'case_other_names',
  {
    customerId: customerIdColumn().references(() => customers.id, { onDelete: 'cascade' }),
    id: idColumn(),
    caseId: integer('case_id').notNull(),
    forename: str('forename', 60),
    forenameDbs: str('forename_dbs', 60),
    middlename: str('middlename', 60),
    middlenameDbs: str('middlename_dbs', 60),
    surname: str('surname', 50),
    surnameDbs: str('surname_dbs', 50),
    fromDate: day('from_date'),
    toDate: day('to_date'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    primaryKey({ columns: [t.customerId, t.id] }),
    index('case_other_names_id_idx').using('hash', t.id),
    foreignKey({
      name: 'case_other_names_case_fk',
      columns: [t.customerId, t.caseId],
      foreignColumns: [cases.customerId, cases.id],
    }).onDelete('cascade'),
    index('case_other_names_case_idx').on(t.customerId, t.caseId, t.fromDate),
  ],
);

/** The address history: OS (a lookup), manual, or idsp (locked); one current address. */
export const caseAddresses = pgTable(
  'case_addresses',
  {
    customerId: customerIdColumn().references(() => customers.id, { onDelete: 'cascade' }),
    id: idColumn(),
    caseId: integer('case_id').notNull(),
    country: str('country', 3),
    countryDbs: str('country_dbs', 3),
    lineOne: str('line_one', 60),
    lineOneDbs: str('line_one_dbs', 60),
    lineTwo: str('line_two', 60),
    lineTwoDbs: str('line_two_dbs', 60),
    town: str('town', 60),
    townDbs: str('town_dbs', 60),
    postcode: str('postcode', 12),
    fromDate: day('from_date'),
    toDate: day('to_date'),
    current: boolean('current').notNull().default(false),
    metadata: jsonb('metadata').$type<Record<string, unknown>>(),
    source: varchar('source', { length: 10 }).notNull().default('manual'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    primaryKey({ columns: [t.customerId, t.id] }),
    index('case_addresses_id_idx').using('hash', t.id),
    foreignKey({
      name: 'case_addresses_case_fk',
      columns: [t.customerId, t.caseId],
      foreignColumns: [cases.customerId, cases.id],
    }).onDelete('cascade'),
    index('case_addresses_case_idx').on(t.customerId, t.caseId, t.fromDate),
    // at most one current address per case (the service answers 400 before this would fail)
    uniqueIndex('case_addresses_one_current_idx')
      .on(t.customerId, t.caseId)
      .where(sql`${t.current}`),
  ],
);

/** The person's passport (one per case). */
export const casePassports = pgTable(
  'case_passports',
  {
    customerId: customerIdColumn().references(() => customers.id, { onDelete: 'cascade' }),
    caseId: integer('case_id').notNull(),
    number: encrypted('number'),
    numberHash: hashOf('number_hash'),
    country: str('country', 3),
    countryDbs: str('country_dbs', 3),
    dob: day('dob'),
    issueDate: day('issue_date'),
    expiryDate: day('expiry_date'),
    source: varchar('source', { length: 10 }).notNull().default('manual'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    primaryKey({ columns: [t.customerId, t.caseId] }),
    foreignKey({
      name: 'case_passports_case_fk',
      columns: [t.customerId, t.caseId],
      foreignColumns: [cases.customerId, cases.id],
    }).onDelete('cascade'),
    index('case_passports_number_hash_idx')
      .on(t.customerId, t.numberHash)
      .where(sql`${t.numberHash} <> ''`),
  ],
);

/** The person's driving licence (one per case): photocard or paper. */
export const caseDrivingLicences = pgTable(
  'case_driving_licences',
  {
    customerId: customerIdColumn().references(() => customers.id, { onDelete: 'cascade' }),
    caseId: integer('case_id').notNull(),
    licenceType: varchar('licence_type', { length: 10 }).notNull(),
    number: encrypted('number'),
    numberHash: hashOf('number_hash'),
    country: str('country', 3),
    countryDbs: str('country_dbs', 3),
    dob: day('dob'),
    issueDate: day('issue_date'),
    expiryDate: day('expiry_date'),
    noSurname: boolean('no_surname').notNull().default(false),
    source: varchar('source', { length: 10 }).notNull().default('manual'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    primaryKey({ columns: [t.customerId, t.caseId] }),
    foreignKey({
      name: 'case_driving_licences_case_fk',
      columns: [t.customerId, t.caseId],
      foreignColumns: [cases.customerId, cases.id],
    }).onDelete('cascade'),
    index('case_driving_licences_number_hash_idx')
      .on(t.customerId, t.numberHash)
      .where(sql`${t.numberHash} <> ''`),
  ],
);

/** What the DBS update service check reads: certificate number, surname, date of birth. */
export const caseDbsUpdateDetails = pgTable(
  'case_dbs_update_details',
  {
    customerId: customerIdColumn().references(() => customers.id, { onDelete: 'cascade' }),
    caseId: integer('case_id').notNull(),
    certificateNumber: str('certificate_number', 12),
    surname: str('surname', 50),
    dob: day('dob'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    primaryKey({ columns: [t.customerId, t.caseId] }),
    foreignKey({
      name: 'case_dbs_update_details_case_fk',
      columns: [t.customerId, t.caseId],
      foreignColumns: [cases.customerId, cases.id],
    }).onDelete('cascade'),
  ],
);
