/**
 * Licensing (issue 32): the statuses of an issued licence, the actions that change them and the
 * council's licence number format.
 */

export const LICENCE_STATUSES = [
  'active',
  'suspended',
  'revoked',
  'expired',
  'surrendered',
] as const;
export type LicenceStatus = (typeof LICENCE_STATUSES)[number];

export const LICENCE_STATUS_LABELS: Record<LicenceStatus, string> = {
  active: 'Active',
  suspended: 'Suspended',
  revoked: 'Revoked',
  expired: 'Expired',
  surrendered: 'Surrendered',
};

/** The actions a licensing officer takes on a licence, each with a required reason. */
export const LICENCE_ACTIONS = ['suspend', 'revoke', 'reinstate', 'surrender'] as const;
export type LicenceAction = (typeof LICENCE_ACTIONS)[number];

interface ActionRule {
  from: readonly LicenceStatus[];
  to: LicenceStatus;
  /** 'Suspend' on the button. */
  label: string;
  /** 'suspended' in 'An expired licence cannot be suspended.' */
  past: string;
}

export const LICENCE_ACTION_RULES: Record<LicenceAction, ActionRule> = {
  suspend: { from: ['active'], to: 'suspended', label: 'Suspend', past: 'suspended' },
  revoke: { from: ['active', 'suspended'], to: 'revoked', label: 'Revoke', past: 'revoked' },
  reinstate: { from: ['suspended'], to: 'active', label: 'Reinstate', past: 'reinstated' },
  surrender: {
    from: ['active', 'suspended'],
    to: 'surrendered',
    label: 'Surrender',
    past: 'surrendered',
  },
};

/** The status an action leads to from `status`, or null when the action is not allowed. */
export function licenceTransition(
  status: LicenceStatus,
  action: LicenceAction,
): LicenceStatus | null {
  const rule = LICENCE_ACTION_RULES[action];
  return rule.from.includes(status) ? rule.to : null;
}

/** The actions allowed on a licence in `status` (the buttons shown). */
export function licenceActionsFor(status: LicenceStatus): LicenceAction[] {
  return LICENCE_ACTIONS.filter((a) => licenceTransition(status, a) !== null);
}

/** 'An expired licence cannot be suspended.' (400, non_field_errors). */
export function licenceActionRefused(status: LicenceStatus, action: LicenceAction): string {
  const label = LICENCE_STATUS_LABELS[status].toLowerCase();
  const article = /^[aeiou]/.test(label) ? 'An' : 'A';
  return `${article} ${label} licence cannot be ${LICENCE_ACTION_RULES[action].past}.`;
}

/** Licence numbers: uppercase letters, digits, '/' and '-', at most 30 characters. */
export const LICENCE_NUMBER_MAX = 30;
export const LICENCE_NUMBER_PATTERN = /^[A-Z0-9](?:[A-Z0-9/-]*[A-Z0-9])?$/;
export const LICENCE_NUMBER_TAKEN = 'A licence with this number already exists.';

/**
 * The council's format: text with `{YYYY}` (the year of issue), `{CODE}` (the sub-group's code)
 * and `{SEQ}` or `{SEQ:n}` (the next number of the council, padded to n digits, 5 by default).
 * E.g. 'NGC/{CODE}/{YYYY}/{SEQ}' gives 'NGC/HCD/2026/00001'.
 */
export const DEFAULT_LICENCE_NUMBER_FORMAT = '{CODE}/{YYYY}/{SEQ}';
const SEQ_TOKEN = /\{SEQ(?::(\d))?\}/;
const FORMAT_PATTERN = /^(?:[A-Z0-9/-]|\{YYYY\}|\{CODE\}|\{SEQ(?::\d)?\})+$/;
export const LICENCE_NUMBER_FORMAT_INVALID =
  'Use letters, digits, / and -, with {SEQ} once and optionally {YYYY} and {CODE}.';

/** A format is valid when it has one {SEQ} and otherwise only the allowed characters and tokens. */
export function isLicenceNumberFormat(format: string): boolean {
  return FORMAT_PATTERN.test(format) && (format.match(/\{SEQ/g) ?? []).length === 1;
}

/** The licence number of the `sequence`th licence in the council's `format`. */
export function formatLicenceNumber(
  format: string,
  parts: { year: number; code: string; sequence: number },
): string {
  const width = Number(SEQ_TOKEN.exec(format)?.[1] ?? 5);
  return format
    .replace('{YYYY}', String(parts.year))
    .replace('{CODE}', parts.code.toUpperCase())
    .replace(SEQ_TOKEN, String(parts.sequence).padStart(width, '0'));
}

/** Sub-group codes (the {CODE} of a number): 1 to 10 uppercase letters or digits. */
export const LICENCE_CODE_PATTERN = /^[A-Z0-9]{1,10}$/;

/** Durations a definition may have: 1 to 5 years (taxi licences are 1 or 3 years). */
export const LICENCE_DURATION_MIN = 1;
export const LICENCE_DURATION_MAX = 5;

/** The expiry date of a licence issued on `issueDate` (ISO) for `years`: the day before the anniversary. */
export function licenceExpiryDate(issueDate: string, years: number): string {
  const date = new Date(`${issueDate}T00:00:00Z`);
  date.setUTCFullYear(date.getUTCFullYear() + years);
  date.setUTCDate(date.getUTCDate() - 1);
  return date.toISOString().slice(0, 10);
}

/** 'Every 3 years' style text for a definition's duration. */
export function licenceDurationText(years: number): string {
  return years === 1 ? '1 year' : `${years} years`;
}

/** New applicants or renewals of a licence (an application portal is one or the other). */
export const APPLICATION_KINDS = ['new', 'renewal'] as const;
export type ApplicationKind = (typeof APPLICATION_KINDS)[number];
export const APPLICATION_KIND_LABELS: Record<ApplicationKind, string> = {
  new: 'New application',
  renewal: 'Renewal',
};

/** A licence as the renewal and grant rules see it. */
export interface LicenceStanding {
  status: LicenceStatus;
  /** YYYY-MM-DD: the last day it is valid. */
  expiryDate: string;
}

/**
 * The renewal rule (issue 32), one home for the council's "Start a renewal", the holder's
 * "Renew" and the renewal portals: a licence can be renewed while it is active and has not yet
 * expired (`today`, YYYY-MM-DD, on or before its expiry); a suspended licence is reinstated first,
 * an expired one is applied for again.
 */
export function isRenewableLicence(l: LicenceStanding, today: string): boolean {
  return l.status === 'active' && l.expiryDate >= today;
}

/** What granting an application does, given the holder's licences of its definition here. */
export type GrantEffect<T extends LicenceStanding> =
  | { effect: 'issue' }
  /** An active licence of the type: the grant renews it (its expiry moves on a term). */
  | { effect: 'extend'; licence: T }
  /** A suspended licence of the type, not expired: no grant until it is reinstated or revoked. */
  | { effect: 'suspended'; licence: T };

/**
 * A person holds at most one licence of a type with a council (taxi licensing practice: a
 * holder's further application is a renewal, whatever portal it came through; cf. the HMRC rule,
 * `taxCheckReason`'s 'holds_here'). Granting a 'new' application of a current holder extends their
 * active licence like a renewal instead of issuing a second one; a suspended one stops the grant
 * (a second licence would get round the suspension). Anyone else is issued a licence.
 */
export function grantEffect<T extends LicenceStanding>(
  held: readonly T[],
  today: string,
): GrantEffect<T> {
  const current = held.filter(
    (l) => (l.status === 'active' || l.status === 'suspended') && l.expiryDate >= today,
  );
  const suspended = current.find((l) => l.status === 'suspended');
  if (suspended) return { effect: 'suspended', licence: suspended };
  const latest = current
    .filter((l) => isRenewableLicence(l, today))
    .sort((a, b) => (a.expiryDate < b.expiryDate ? 1 : -1))[0];
  return latest ? { effect: 'extend', licence: latest } : { effect: 'issue' };
}
