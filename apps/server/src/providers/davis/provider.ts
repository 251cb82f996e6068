import type { LicenceCheckStatus } from '@kestrel/domain';

/**
 * A licence-checking service of the Davis kind: a driver is registered once (licence number,
 * names, date of birth, email, the mandate's date), the service asks the DVLA and answers the
 * licence's check (status, licence data, address, endorsements, entitlements); it checks again
 * when asked (re-checks), and needs the driver's email confirmed before it may send them its
 * own mandate (status EmailUnconfirmed until operations confirm it). The engine calls it only
 * from jobs. Its HTTP shape (client.ts) is modelled on such services' public REST APIs.
 */

export interface DavisDriverIn {
  /** Our reference for the driver (the activity's idempotency key): one registration. */
  reference: string;
  licence_number: string;
  forename: string;
  surname: string;
  /** 'YYYY-MM-DD'. */
  dob: string;
  email: string;
  /** When the subject signed the mandate, 'YYYY-MM-DD'. */
  mandate_date: string;
}

export interface DavisEndorsement {
  code: string;
  offence_date: string | null;
  conviction_date: string | null;
  points: number | null;
}

export interface DavisEntitlement {
  category: string;
  type: string | null;
  valid_from: string | null;
  valid_to: string | null;
  restrictions: { code: string; text: string | null }[];
}

/** A driver's latest check, as the service answers it. */
export interface DavisCheck {
  driver_id: string;
  status: LicenceCheckStatus;
  /** 'YYYY-MM-DD' of the latest completed check, null before one. */
  checked_at: string | null;
  licence: {
    number: string;
    type: string | null;
    status: string | null;
    issue_number: string | null;
    valid_from: string | null;
    valid_to: string | null;
  } | null;
  address: string | null;
  endorsements: DavisEndorsement[];
  entitlements: DavisEntitlement[];
}

export interface DavisProvider {
  /** Registers the driver (idempotent by reference) and answers their first check's state. */
  register(driver: DavisDriverIn, signal: AbortSignal): Promise<DavisCheck>;
  /** The driver's latest check. */
  check(driverId: string, signal: AbortSignal): Promise<DavisCheck>;
  /** Checks the licence again now (a re-check), and answers it. */
  recheck(driverId: string, signal: AbortSignal): Promise<DavisCheck>;
  /** Confirms the driver's email (the Davis email confirmation), and answers the check's state. */
  confirmEmail(driverId: string, email: string, signal: AbortSignal): Promise<DavisCheck>;
}

export { aborted, ProviderError } from '../errors.js';
