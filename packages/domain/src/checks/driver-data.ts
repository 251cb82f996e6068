import { z } from 'zod';
import { endorsementRecordSchema, entitlementRecordSchema } from './driving-records.js';

/*
 * The `result_data` of a driver data check (DVLA Access to Driver Data, spec point 2): driver,
 * licence, token, endorsements with their removal date, entitlements, tests; CPCs and DQCs when
 * the activity's configuration asks for them (include_cpc), tacho cards when it asks for them
 * (include_tacho); or the enquiry code of no record (ENQ018) or a suppressed one (ENQ037, with
 * the mandate's date). Every field is optional: a panel shows dashes for what is missing.
 */

const text = z.string().max(200).nullish();
const date = z.string().max(40).nullish();
const list = <T extends z.ZodType>(item: T) => z.array(item).max(100).nullish();

/** The enquiry codes the panel words (spec point 8). */
export const DRIVER_DATA_ENQUIRY_CODES = ['ENQ018', 'ENQ037'] as const;
export type DriverDataEnquiryCode = (typeof DRIVER_DATA_ENQUIRY_CODES)[number];

export const driverDataDriverSchema = z.object({
  first_names: text,
  last_name: text,
  gender: text,
  date_of_birth: date,
  /** The address lines and postcode joined (', '). */
  address: text,
});

export const driverDataLicenceSchema = z.object({
  /** 'Full' or 'Provisional'. */
  type: text,
  /** 'Valid', 'Disqualified', 'Revoked', 'Surrendered', 'Expired'… */
  status: text,
  status_qualifier: text,
});

export const driverDataTokenSchema = z.object({
  valid_from: date,
  valid_to: date,
  issue_number: text,
});

export const driverDataTestSchema = z.object({
  category: z.string().max(10),
  test_date: date,
  status: text,
});

/** A Driver Certificate of Professional Competence: its lorry and bus validity. */
export const driverDataCpcSchema = z.object({
  lgv_valid_to: date,
  pcv_valid_to: date,
});

/** A Driver Qualification Card. */
export const driverDataDqcSchema = z.object({
  card_number: text,
  issue_date: date,
  valid_to: date,
});

export const driverDataTachoCardSchema = z.object({
  card_number: text,
  status: text,
  valid_from: date,
  valid_to: date,
});

export const driverDataResultDataSchema = z.object({
  /** ENQ018 (no driver record) or ENQ037 (suppressed); null with a record. */
  enquiry_code: z.enum(DRIVER_DATA_ENQUIRY_CODES).nullish(),
  /** When the subject signed the DVLA mandate (the consent), 'YYYY-MM-DD'. */
  mandate_date: date,
  /** When the DVLA was last asked. */
  checked_date: date,
  /** The first day the record was found suppressed (ENQ037): it is asked again for 28 days. */
  suppressed_since: date,
  include_cpc: z.boolean().nullish(),
  include_tacho: z.boolean().nullish(),
  driver: driverDataDriverSchema.nullish(),
  licence: driverDataLicenceSchema.nullish(),
  token: driverDataTokenSchema.nullish(),
  endorsements: list(endorsementRecordSchema),
  entitlements: list(entitlementRecordSchema),
  tests: list(driverDataTestSchema),
  cpcs: list(driverDataCpcSchema),
  dqcs: list(driverDataDqcSchema),
  tacho_cards: list(driverDataTachoCardSchema),
});
export type DriverDataResultData = z.infer<typeof driverDataResultDataSchema>;
