import { addMonths } from 'date-fns/addMonths';
import { format } from 'date-fns/format';
import { parseISO } from 'date-fns/parseISO';
import { z } from 'zod';
import {
  currentPoints,
  type EndorsementRecord,
  endorsementRecordSchema,
  entitlementRecordSchema,
} from './driving-records.js';

/*
 * The `result_data` of a driving licence check (a licence-checking service of the Davis kind,
 * spec point 2): its status (AwaitingCheck, DQ3…, point 4), risk, last and next check dates,
 * licence data, address, endorsements and entitlements; the email operations confirmed for the
 * service (the Davis email confirmation form); and what the last re-check found changed.
 */

const text = z.string().max(200).nullish();
const date = z.string().max(40).nullish();

/**
 * The service's statuses: AwaitingCheck (asked of the DVLA), DQ3 (the DVLA answers by hand,
 * 14-28 working days), EmailUnconfirmed (the service waits for operations to confirm the
 * driver's email), Checked (the licence was checked), NotFound (no licence with that number).
 */
export const LICENCE_CHECK_STATUS_VALUES = [
  'AwaitingCheck',
  'DQ3',
  'EmailUnconfirmed',
  'Checked',
  'NotFound',
] as const;
export type LicenceCheckStatus = (typeof LICENCE_CHECK_STATUS_VALUES)[number];

export const LICENCE_CHECK_STATUS_LABELS: Record<LicenceCheckStatus, string> = {
  AwaitingCheck: 'Awaiting check',
  DQ3: 'Manual DVLA response (DQ3)',
  EmailUnconfirmed: 'Email confirmation needed',
  Checked: 'Checked',
  NotFound: 'Licence not found',
};

export const LICENCE_RISKS = ['low', 'medium', 'high'] as const;
export type LicenceRisk = (typeof LICENCE_RISKS)[number];
export const LICENCE_RISK_LABELS: Record<LicenceRisk, string> = {
  low: 'Low',
  medium: 'Medium',
  high: 'High',
};

/** How many months after a check the licence is checked again, by risk (our own cadence). */
export const RECHECK_MONTHS: Record<LicenceRisk, number> = { low: 12, medium: 6, high: 3 };

/** Licence statuses that make a driver high risk whatever their points. */
const HIGH_RISK_STATUSES = ['disqualified', 'revoked', 'refused', 'surrendered', 'expired'];

/**
 * A licence's risk: high when it is not valid to drive on (disqualified, revoked…) or carries 7
 * or more current points; medium from 4 points; low otherwise.
 */
export function licenceRisk(o: {
  licenceStatus: string | null | undefined;
  endorsements: readonly EndorsementRecord[];
  today: string;
}): LicenceRisk {
  const status = (o.licenceStatus ?? '').toLowerCase();
  if (HIGH_RISK_STATUSES.some((s) => status.includes(s))) return 'high';
  const points = currentPoints(o.endorsements, o.today);
  if (points >= 7) return 'high';
  if (points >= 4) return 'medium';
  return 'low';
}

/** The next check date after a check on `checked` ('YYYY-MM-DD') at `risk`. */
export function nextCheckDate(checked: string, risk: LicenceRisk): string {
  return format(addMonths(parseISO(checked), RECHECK_MONTHS[risk]), 'yyyy-MM-dd');
}

export const licenceCheckLicenceSchema = z.object({
  /** The licence number, as the subject gave it. */
  number: text,
  /** 'Full' or 'Provisional'. */
  type: text,
  /** 'Valid', 'Disqualified'… */
  status: text,
  issue_number: text,
  valid_from: date,
  valid_to: date,
  /** Current penalty points. */
  points: z.number().int().min(0).max(99).nullish(),
});

export const licenceCheckResultDataSchema = z.object({
  status: z.enum(LICENCE_CHECK_STATUS_VALUES).nullish(),
  risk: z.enum(LICENCE_RISKS).nullish(),
  last_check_date: date,
  next_check_date: date,
  /** When the subject signed the mandate (the consent), 'YYYY-MM-DD'. */
  mandate_date: date,
  licence: licenceCheckLicenceSchema.nullish(),
  /** The address on the licence, joined (', '). */
  address: text,
  endorsements: z.array(endorsementRecordSchema).max(100).nullish(),
  entitlements: z.array(entitlementRecordSchema).max(100).nullish(),
  /** The driver's email operations confirmed to the service (Davis email confirmation). */
  confirmed_email: text,
  confirmed_at: date,
  /** What the last re-check found changed (empty: nothing), in words. */
  changes: z.array(z.string().max(200)).max(20).nullish(),
});
export type LicenceCheckResultData = z.infer<typeof licenceCheckResultDataSchema>;

/**
 * What changed between two checks of one licence, in words: its status, its points, and each
 * endorsement added or removed (by code and offence date). Empty when nothing changed.
 */
export function licenceChanges(
  before: Pick<LicenceCheckResultData, 'licence' | 'endorsements'>,
  after: Pick<LicenceCheckResultData, 'licence' | 'endorsements'>,
): string[] {
  const out: string[] = [];
  const was = before.licence?.status ?? null;
  const now = after.licence?.status ?? null;
  if (was !== now) out.push(`Licence status changed from ${was ?? 'none'} to ${now ?? 'none'}`);
  const key = (e: EndorsementRecord) => `${e.offence_code} ${e.offence_date ?? ''}`.trim();
  const old = new Set((before.endorsements ?? []).map(key));
  const fresh = new Set((after.endorsements ?? []).map(key));
  for (const k of fresh) if (!old.has(k)) out.push(`New endorsement ${k}`);
  for (const k of old) if (!fresh.has(k)) out.push(`Endorsement ${k} removed`);
  const p0 = before.licence?.points ?? 0;
  const p1 = after.licence?.points ?? 0;
  if (p0 !== p1) out.push(`Penalty points changed from ${p0} to ${p1}`);
  return out;
}
