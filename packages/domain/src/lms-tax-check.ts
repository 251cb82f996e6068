import type { TaxCheckNeed } from './contracts/lms-applications.js';
import { plusYears } from './dates.js';
import type { LicenceStatus } from './lms.js';

/**
 * When a licence application needs an HMRC tax check code (GOV.UK, 'Tax checks for taxi, private
 * hire and scrap metal licence renewals'): the applicant gives a 9-character code when they
 * - renew a licence (a renewal portal, or the council's renewal from the licence record);
 * - apply for the same type of licence they hold now with this council (an existing holder's
 *   application is a renewal, whatever portal it comes through);
 * - apply for the same type of licence they held, which ceased or expired less than a year ago
 *   (with this council or another: expired, revoked or surrendered);
 * - apply for the same type of licence they hold with another licensing body (declared, or a
 *   licence of theirs at another council).
 * Anyone else applies for the first time and confirms they know their tax responsibilities.
 */

/** Why a code is needed; `null`: the applicant confirms their tax responsibilities. */
export type TaxCheckReason = 'renewal' | 'holds_here' | 'ceased_within_year' | 'holds_elsewhere';

/** A licence of the applicant's: only those of the same type as the one applied for count. */
export interface HeldLicence {
  /** The same type (this council's same sub-group, or a sub-group of the same code elsewhere). */
  sameType: boolean;
  /** Issued by the council of the application. */
  here: boolean;
  status: LicenceStatus;
  /** YYYY-MM-DD: the last day it is valid. */
  expiryDate: string;
  /** YYYY-MM-DD: when it was revoked or surrendered (its last status change), if it was. */
  statusChangedOn: string | null;
}

export interface TaxCheckFacts {
  renewal: boolean;
  /** The applicant declared a licence of the same type held with another authority. */
  declaredElsewhere: boolean;
  held: readonly HeldLicence[];
  /** YYYY-MM-DD. */
  today: string;
}

/** The last day a licence was in force: its expiry, or the day it was revoked or surrendered. */
export function licenceEndedOn(l: HeldLicence): string {
  if ((l.status === 'revoked' || l.status === 'surrendered') && l.statusChangedOn !== null) {
    // ISO dates order as text; a change recorded after the expiry ends it at the expiry
    if (l.statusChangedOn < l.expiryDate) return l.statusChangedOn;
  }
  return l.expiryDate;
}

/** In force today: active or suspended and not past its expiry. */
export function isCurrentLicence(l: HeldLicence, today: string): boolean {
  return (l.status === 'active' || l.status === 'suspended') && l.expiryDate >= today;
}

export function taxCheckReason(f: TaxCheckFacts): TaxCheckReason | null {
  if (f.renewal) return 'renewal';
  const same = f.held.filter((l) => l.sameType);
  if (same.some((l) => l.here && isCurrentLicence(l, f.today))) return 'holds_here';
  if (f.declaredElsewhere || same.some((l) => !l.here && isCurrentLicence(l, f.today))) {
    return 'holds_elsewhere';
  }
  // ceased less than a year ago: its last day on or after the same date a year before today
  const yearAgo = plusYears(f.today, -1);
  if (same.some((l) => !isCurrentLicence(l, f.today) && licenceEndedOn(l) >= yearAgo)) {
    return 'ceased_within_year';
  }
  return null;
}

export function taxCheckNeedOf(f: TaxCheckFacts): TaxCheckNeed {
  return taxCheckReason(f) === null ? 'confirm' : 'code';
}

/**
 * A renewal in substance (a renewal portal, or a holder of a current licence of the same type
 * with this council): the code is confirmed with HMRC when the application is made, and a
 * missing, malformed, expired or unknown code stops it.
 */
export function taxCheckedOnApply(reason: TaxCheckReason | null): boolean {
  return reason === 'renewal' || reason === 'holds_here';
}
