import { ProviderError } from '../errors.js';

/**
 * An online identity check at a certified identity service provider (IDSP, PROVIDERS.md "Digital
 * identity and right to work"): Kestrel opens a session for a person, sends the person to the
 * provider's own pages (`url`), and learns the outcome by a signed callback and/or by asking for
 * the session's result when the person comes back. The simulator (simulator.ts) is the default;
 * client.ts is the real client (IDV_PROVIDER=api).
 */

/** The person the check is for, as Kestrel knows them before the check. */
export interface IdvPerson {
  forename: string;
  middlename: string;
  surname: string;
  /** YYYY-MM-DD, or null when not known yet. */
  dob: string | null;
}

/** Trust framework levels (DBS basic and right to work: medium; DBS standard/enhanced: high). */
export type IdvLevel = 'medium' | 'high';

export interface IdvSessionRequest {
  /** Kestrel's own reference of the check (the case), echoed in results and callbacks. */
  reference: string;
  person: IdvPerson;
  level: IdvLevel;
  /** Where the provider sends the person back when they finish or leave. */
  returnUrl: string;
  /** Where the provider posts the signed result. */
  callbackUrl: string;
}

export interface IdvSession {
  /** The provider's session id. */
  id: string;
  /** The provider's page the person opens to do the check. */
  url: string;
}

/** A scheme (DBS, right to work) and whether the verified identity meets its requirements. */
export interface IdvSchemeResult {
  name: 'DBS' | 'RTW';
  requirements_met: boolean;
}

/** The verified data the provider gives with a pass. */
export interface IdvVerifiedPerson {
  forename: string;
  middlename: string;
  surname: string;
  dob: string;
}

export interface IdvVerifiedAddress {
  line_one: string;
  line_two: string;
  town: string;
  postcode: string;
  /** ISO 3166 alpha-3. */
  country: string;
  /** YYYY-MM-DD: since when the person lives there. */
  from_date: string;
}

/** Why the name on the person's documents differs from the name Kestrel sent (spec point 5). */
export type IdvNameMismatchReason =
  | 'document_previous_name'
  | 'document_short_name'
  | 'account_name_incorrect'
  | 'other';

/** How the person proved who they are: the provider's app, a bank, or in a Post Office branch. */
export type IdvRoute = 'digital' | 'bank' | 'post-office';

/** The finished check. */
export interface IdvResult {
  session: string;
  reference: string;
  outcome: 'passed' | 'failed';
  /** Bank-verified identity (a bank confirmed it) rather than a document check. */
  ibv_verified: boolean;
  /** The bank verification's own session id, when there was one. */
  ibv_session: string | null;
  /** The level of assurance reached ('medium', 'high') or null for none. */
  level_of_assurance: IdvLevel | null;
  schemes: IdvSchemeResult[];
  /** Present with a pass. */
  person: IdvVerifiedPerson | null;
  address: IdvVerifiedAddress | null;
  /** Present with a failure: a short reason in plain words. */
  failure_reason: string | null;
  /** How the identity was proved (a pass). */
  route: IdvRoute | null;
  /**
   * The documents name another name than Kestrel sent: the provider asked the person why (the
   * four reasons of spec point 5) and gives the documents' name.
   */
  name_mismatch: { reason: IdvNameMismatchReason; document_name: string } | null;
  completed_at: string;
}

/** What a verified callback carries: an event id (delivered at least once) and the result. */
export interface IdvCallbackEvent {
  id: string;
  result: IdvResult;
}

/**
 * The provider as the online-idv module (sessions) and the check engine (results) use it. Its
 * signed callbacks are verified by the engine (signature.ts, the engine's provider entry).
 */
export interface IdvProvider {
  readonly name: string;
  createSession(request: IdvSessionRequest, signal?: AbortSignal): Promise<IdvSession>;
  /** The session's result, or null while the person has not finished. */
  fetchResult(sessionId: string, signal?: AbortSignal): Promise<IdvResult | null>;
}

/** The provider could not be reached or answered something unexpected (a ProviderError). */
export class IdvProviderError extends ProviderError {
  constructor(message: string, retryable = true, status: number | null = null) {
    super(message, retryable, status);
  }
}
