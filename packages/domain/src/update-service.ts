import { z } from 'zod';
import { dateSelectorDefaults, refineDateRange } from './date-selector.js';
import { isoDateSchema } from './dates.js';
import { MESSAGES } from './messages.js';
import { requiredText, surnameSchema } from './text-rules.js';

/** Certificate update statuses from the update service and what they mean (spec point 4). */
export const CERTIFICATE_STATUS_MEANINGS = {
  BLANK_NO_NEW_INFO:
    'This certificate did not reveal any information and remains current as no further information has been found since its issue.',
  NON_BLANK_NO_NEW_INFO:
    'This certificate remains current as no further information has been found since its issue.',
  NEW_INFO:
    'This certificate is no longer current. Please apply for a new check to see the new information.',
  NO_MATCH_FOUND: 'No match found.',
} as const;
export type CertificateStatus = keyof typeof CERTIFICATE_STATUS_MEANINGS;
export const UNEXPECTED_STATUS = 'Unexpected status.';

export function isCertificateStatus(value: unknown): value is CertificateStatus {
  return typeof value === 'string' && Object.hasOwn(CERTIFICATE_STATUS_MEANINGS, value);
}

/** The shown meaning of a certificate status; 'Unexpected status.' for anything else. */
export function certificateStatusMeaning(status: string | null | undefined): string {
  return isCertificateStatus(status) ? CERTIFICATE_STATUS_MEANINGS[status] : UNEXPECTED_STATUS;
}

export const UPDATE_SERVICE_STATUSES = ['registered', 'pending', 'not-registered'] as const;
export type UpdateServiceStatus = (typeof UPDATE_SERVICE_STATUSES)[number];
export const UPDATE_SERVICE_STATUS_LABELS: Record<UpdateServiceStatus, string> = {
  registered: 'Registered',
  pending: 'Pending',
  'not-registered': 'Not registered',
};

/**
 * The subject's update-service registration derived from the last certificate status: any
 * status that describes the certificate means it is registered; NO_MATCH_FOUND means it is
 * not; no answer yet (or one we do not recognise) leaves it pending.
 */
export function updateServiceStatus(status: string | null | undefined): UpdateServiceStatus {
  if (status === 'NO_MATCH_FOUND') return 'not-registered';
  return isCertificateStatus(status) ? 'registered' : 'pending';
}

/** A DBS certificate number: the 12 digits the update service reads (`disclosureRef`). */
export const CERTIFICATE_NUMBER_PATTERN = /^\d{12}$/;

/** The fields of a case's DBS update details: certificate number, surname, date of birth. */
export const dbsUpdateDetailsFields = z.object({
  certificate_number: requiredText()
    .transform((v) => v.replace(/\s+/g, ''))
    .pipe(z.string().regex(CERTIFICATE_NUMBER_PATTERN, MESSAGES.invalidNumber)),
  surname: surnameSchema,
  dob: isoDateSchema,
});

/** Given `today`, the date of birth lies in the date selector's range. */
export function refineDbsUpdateDetails(
  data: z.output<typeof dbsUpdateDetailsFields>,
  ctx: z.RefinementCtx,
  today: Date | string,
): void {
  refineDateRange(ctx, data, ['dob'], dateSelectorDefaults(today));
}

/** DBS update details with every rule, on `today`. */
export function dbsUpdateDetailsSchema(today: Date | string) {
  return dbsUpdateDetailsFields.superRefine((d, ctx) => refineDbsUpdateDetails(d, ctx, today));
}
export type DbsUpdateDetails = z.infer<typeof dbsUpdateDetailsFields>;
