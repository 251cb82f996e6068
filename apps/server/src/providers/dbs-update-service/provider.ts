/**
 * The DBS Update Service's Multiple Status Check Facility: one status check of a certificate
 * (PROVIDERS.md). The engine calls it only from jobs.
 */

export interface StatusCheckQuery {
  /** The 12-digit certificate number (`disclosureRef`). */
  certificate_number: string;
  surname: string;
  /** YYYY-MM-DD (sent as DD/MM/YYYY). */
  dob: string;
  organisation_name: string;
  employee_forename: string;
  employee_surname: string;
}

/** `statusCheckResult`: the status, and for a match the names and print date. */
export interface StatusCheckAnswer {
  result_type: string;
  status: string;
  forename: string | null;
  surname: string | null;
  print_date: string | null;
}

export interface UpdateServiceProvider {
  statusCheck(query: StatusCheckQuery, signal: AbortSignal): Promise<StatusCheckAnswer>;
}

export { ProviderError } from '../dbs-basic/provider.js';
