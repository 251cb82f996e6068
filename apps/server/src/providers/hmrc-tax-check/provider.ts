/**
 * HMRC's tax check for licence applications (GOV.UK: 'Tax checks for taxi, private hire and
 * scrap metal licence renewals'): the applicant gets a 9-character tax check code from HMRC,
 * valid for 120 days from its issue; the licensing body confirms it with HMRC before deciding
 * the application. The licensing body asks with the code and the applicant's name and date of
 * birth; HMRC answers whether the code is valid for them, expired, or not known.
 */

export interface TaxCheckQuery {
  /** 9 uppercase letters and digits. */
  code: string;
  first_name: string;
  last_name: string;
  /** YYYY-MM-DD, or null when the council does not hold it. */
  dob: string | null;
  /** What the licence is for (HMRC's licence types): 'driver', 'operator', 'vehicle'. */
  licence_type: string;
  /** Today at the council (YYYY-MM-DD): a code past its 120 days is expired. */
  today: string;
}

export type TaxCheckOutcome = 'valid' | 'expired' | 'unknown';

export interface TaxCheckAnswer {
  outcome: TaxCheckOutcome;
  /** The code's issue and expiry dates (YYYY-MM-DD) when HMRC knows it. */
  issued_on: string | null;
  expires_on: string | null;
}

export interface TaxCheckProvider {
  confirm(query: TaxCheckQuery, signal: AbortSignal): Promise<TaxCheckAnswer>;
}

/** A tax check code is valid for this many days from its issue (GOV.UK). */
export const TAX_CHECK_VALID_DAYS = 120;

export { ProviderError } from '../errors.js';
