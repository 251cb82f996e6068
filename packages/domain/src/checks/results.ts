import { z } from 'zod';
import { ADULT_FIRST_RESULTS, ADULT_FIRST_STAGES, type AdultFirstResult } from '../adult-first.js';

/*
 * The `result_data` of each criminal-record family check (spec point 2, result panels), typed
 * per activity kind. Every field is optional: a result fills in over time (receipt, tracking
 * stages, disclosure), and a panel shows the spec's fallback text for what is still missing.
 * Dates are 'YYYY-MM-DD' (or full ISO timestamps); the panels show them as 'do MMM y'.
 */

const text = z.string().max(200).nullish();
const date = z.string().max(40).nullish();
const flag = z.boolean().nullish();

/** The applicant as submitted to the DBS (applicant details). */
export const dbsApplicantSchema = z.object({
  title: text,
  forename: text,
  middlename: text,
  surname: text,
  dob: date,
  email: text,
  phone_number: text,
  nin: text,
  nationality: text,
  birth_town: text,
  birth_country: text,
  current_address: text,
});
export type DbsApplicant = z.infer<typeof dbsApplicantSchema>;

/** Application details: the DBS receipt and the dates of its progress. */
export const dbsApplicationDetailsSchema = z.object({
  status: text,
  reference: text,
  /** The e-bulk / form reference number the provider gives on submission. */
  e_number: text,
  received_date: date,
  police_computer_search_date: date,
  certificate_assembled_date: date,
  certificate_despatched_date: date,
  certificate_printed_date: date,
  barred_list_search_date: date,
  records_held_date: date,
  verified_by: text,
  countersigned_by: text,
});
export type DbsApplicationDetails = z.infer<typeof dbsApplicationDetailsSchema>;

/** The disclosure result (status, number, issue date, manual certificate flag). */
export const DISCLOSURE_STATUSES = ['clear', 'records-held', 'barred-list-match'] as const;
export type DisclosureStatus = (typeof DISCLOSURE_STATUSES)[number];
export const DISCLOSURE_STATUS_LABELS: Record<DisclosureStatus, string> = {
  clear: 'Clear',
  'records-held': 'Records held',
  'barred-list-match': 'Barred list match',
};
export const dbsDisclosureResultSchema = z.object({
  status: z.string().max(60).nullish(),
  certificate_number: text,
  issue_date: date,
  manual_certificate: flag,
});
export type DbsDisclosureResult = z.infer<typeof dbsDisclosureResultSchema>;

/** One tracking stage of an application, with its status and completion date. */
export const dbsTrackingStageSchema = z.object({
  stage: z.string().max(100),
  status: z.string().max(60).nullish(),
  completed_date: date,
});
export type DbsTrackingStage = z.infer<typeof dbsTrackingStageSchema>;

/** Barred-list searches per workforce (enhanced checks with the adult or child list). */
export const BARRED_LISTS = ['adult', 'child'] as const;
export type BarredList = (typeof BARRED_LISTS)[number];
export const BARRED_LIST_LABELS: Record<BarredList, string> = {
  adult: 'Adults barred list',
  child: 'Children barred list',
};
export const dbsBarredListSearchSchema = z.object({
  list: z.enum(BARRED_LISTS),
  searched: flag,
  search_date: date,
  /** 'no-match' or 'match'; absent until searched. */
  result: z.enum(['no-match', 'match']).nullish(),
});
export type DbsBarredListSearch = z.infer<typeof dbsBarredListSearchSchema>;

/** Update service status of the certificate (registered / pending / not registered). */
export const dbsUpdateServiceStatusSchema = z.object({
  /** The raw certificate status from the update service (point 4), e.g. BLANK_NO_NEW_INFO. */
  certificate_status: text,
  checked_date: date,
});
export type DbsUpdateServiceStatus = z.infer<typeof dbsUpdateServiceStatusSchema>;

/** A top-up payment the provider or the price list demands before the check goes on. */
export const topUpResultSchema = z.object({
  status: z.enum(['awaiting', 'paid', 'declined']),
  /** Pence. */
  amount: z.number().int().nonnegative().nullish(),
  /** The id of the payment portal page: `/payment-portal/{payment_id}`. */
  payment_id: z.union([z.string().max(100), z.number().int()]).nullish(),
});
export type TopUpResult = z.infer<typeof topUpResultSchema>;

/** `result_data` of dbs-basic, dbs-standard and dbs-enhanced. */
export const dbsResultDataSchema = z.object({
  applicant: dbsApplicantSchema.nullish(),
  application: dbsApplicationDetailsSchema.nullish(),
  disclosure: dbsDisclosureResultSchema.nullish(),
  tracking: z.array(dbsTrackingStageSchema).max(50).nullish(),
  barred_lists: z.array(dbsBarredListSearchSchema).max(2).nullish(),
  update_service: dbsUpdateServiceStatusSchema.nullish(),
  top_up: topUpResultSchema.nullish(),
});
export type DbsResultData = z.infer<typeof dbsResultDataSchema>;
export const dbsBasicResultDataSchema = dbsResultDataSchema;
export const dbsStandardResultDataSchema = dbsResultDataSchema;
export const dbsEnhancedResultDataSchema = dbsResultDataSchema;

/** `result_data` of dbs-update: status, forename, surname, print date and result. */
export const dbsUpdateResultDataSchema = z.object({
  /** The raw certificate status (point 4); its meaning is the result shown. */
  certificate_status: text,
  certificate_number: text,
  forename: text,
  surname: text,
  print_date: date,
  checked_date: date,
});
export type DbsUpdateResultData = z.infer<typeof dbsUpdateResultDataSchema>;

const ADULT_FIRST_RESULT_VALUES = ADULT_FIRST_RESULTS.map((r) => r.value) as [
  AdultFirstResult,
  ...AdultFirstResult[],
];

/** `result_data` of adult-first: stage, the linked DBS case, reference and result. */
export const adultFirstResultDataSchema = z.object({
  stage: z.enum(ADULT_FIRST_STAGES).nullish(),
  /** The id of the linked DBS (enhanced) case. */
  dbs_case: z.number().int().positive().nullish(),
  reference: text,
  e_number: text,
  result: z.enum(ADULT_FIRST_RESULT_VALUES).nullish(),
  requested_date: date,
  result_date: date,
});
export type AdultFirstResultData = z.infer<typeof adultFirstResultDataSchema>;
