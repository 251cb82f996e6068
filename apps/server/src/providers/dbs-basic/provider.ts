import type { ApplicationUpdate, DbsEnhancedProvider } from '@kestrel/domain';

/**
 * A criminal-record provider (the basic-disclosure service, or e-bulk for standard and enhanced
 * checks): it takes an application, answers with its state, and later calls back (signed) as the
 * application moves through its stages. The engine calls it only from jobs.
 */

export type DisclosureLevel = 'basic' | 'standard' | 'enhanced';

/** The person as the application names them (certificate names preferred). */
export interface DisclosureApplicant {
  title: string;
  forename: string;
  middlename: string;
  surname: string;
  dob: string;
  gender: string;
  email: string;
  phone_number: string;
  nin: string;
  nationality: string;
  birth_town: string;
  birth_country: string;
  current_address: string;
}

export interface DisclosureApplication {
  /** The same for every submission of one activity: the provider makes one application. */
  idempotency_key: string;
  level: DisclosureLevel;
  /** Where the provider posts its signed callbacks for this application. */
  callback_url: string;
  applicant: DisclosureApplicant;
  /** Workforce (O, C, A, CA) and the barred lists to search (enhanced only). */
  workforce: string | null;
  barred_lists: ('adult' | 'child')[];
  purpose: string | null;
  position: string | null;
  /**
   * The employer named on the certificate: typed into the activity's configuration, or its
   * case's segment's ('segment employer name', issue 30); null when none is named.
   */
  employer_name?: string | null;
  /** A payment intent that paid a top-up the provider demanded, else null. */
  top_up_payment: string | null;
  /**
   * How the registered body checked the applicant's identity, and its countersignature
   * (standard and enhanced applications need both; null before verification).
   */
  identity_verification: IdentityVerification | null;
  /** The registered body's contacts operations configured (enhanced), else null. */
  provider_configuration: DbsEnhancedProvider | null;
}

/** The registered body's identity check of the applicant and its countersignature. */
export interface IdentityVerification {
  /** online: a passed digital identity check; documents: an identity checking route. */
  basis: 'online' | 'documents';
  /** The route the documents met (1 to 3), null online. */
  route: number | null;
  verified_by: string;
  verified_at: string;
  countersigned_by: string | null;
  countersigned_at: string | null;
}

export interface DisclosureProvider {
  readonly name: 'dbs-basic' | 'ebulk';
  /** Submits (idempotently): the application's first state, or a demanded top-up. */
  submit(application: DisclosureApplication, signal: AbortSignal): Promise<ApplicationUpdate>;
  /** The application's current state. */
  status(reference: string, signal: AbortSignal): Promise<ApplicationUpdate>;
}

export { aborted, ProviderError } from '../errors.js';
