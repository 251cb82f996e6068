import { ProviderError } from '../errors.js';

/**
 * The Home Office's right-to-work check by share code ("view and prove your rights", PROVIDERS.md
 * "Digital identity and right to work"): an employer gives the share code the person made (9
 * letters and digits starting with W, valid 90 days) and the person's date of birth, and is
 * shown the person's name, photo, right-to-work status, its conditions and, for a time-limited
 * right, when it ends. British and Irish citizens have no share code (documents instead).
 * The simulator (simulator.ts) is the default; client.ts is the real client.
 */

export interface RtwShareCodeQuery {
  share_code: string;
  /** YYYY-MM-DD. */
  date_of_birth: string;
  /** The employer making the check (shown to the person in their own account). */
  company_name: string;
  /**
   * The person as the employer knows them. Not sent by the real client (the service answers
   * with the name it holds); the simulator echoes it so that its answers fit the test data.
   */
  applicant?: { forename: string; surname: string };
}

/** What the Home Office holds: a permanent or time-limited right, none, or no such profile. */
export type RtwStatus = 'permanent' | 'time-limited' | 'no-right' | 'not-found';

export interface RtwShareCodeAnswer {
  status: RtwStatus;
  /** The service's reference of this check (kept as the employer's evidence). */
  check_reference: string;
  forename: string | null;
  surname: string | null;
  nationality: string | null;
  date_of_birth: string | null;
  /** The person's photo as a data: URL (image/jpeg or image/svg+xml), or null. */
  photo: string | null;
  /** The service's own words for the status. */
  status_text: string;
  /** Conditions of the right (work restrictions, hours). */
  conditions: string[];
  /** YYYY-MM-DD when a time-limited right ends, else null. */
  expiry_date: string | null;
}

export interface HomeOfficeRtwProvider {
  checkShareCode(query: RtwShareCodeQuery, signal: AbortSignal): Promise<RtwShareCodeAnswer>;
}

export { ProviderError };
