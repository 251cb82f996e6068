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
  completed_at: string;
}

/** What a verified callback carries: an event id (delivered at least once) and the result. */
export interface IdvCallbackEvent {
  id: string;
  result: IdvResult;
}

export interface IdvProvider {
  readonly name: string;
  createSession(request: IdvSessionRequest): Promise<IdvSession>;
  /** The session's result, or null while the person has not finished. */
  fetchResult(sessionId: string): Promise<IdvResult | null>;
  /**
   * Checks a callback's signature (`IDV-Signature: t=<unix seconds>,v1=<hex HMAC-SHA256 of
   * "<t>.<raw body>">`), its age (at most five minutes either way) and its shape. Throws
   * IdvCallbackError when any of them fails.
   */
  verifyCallback(rawBody: string, signature: string | undefined, now: Date): IdvCallbackEvent;
}

/** The provider could not be reached or answered something unexpected. */
export class IdvProviderError extends Error {}

/** A callback that is unsigned, wrongly signed, too old or malformed. */
export class IdvCallbackError extends Error {}
