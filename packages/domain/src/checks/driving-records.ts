import { z } from 'zod';
import {
  endorsementCode,
  endorsementEndDate,
  formatEndorsementPoints,
  UNRECOGNISED_CODE,
} from '../endorsements.js';

/*
 * The driving record parts the driver data (DVLA) and licence check (Davis) results share: the
 * endorsements, with their removal date computed by the endorsement table's rules (spec point
 * 9), and the entitlements. Every field is optional (a result fills in, a panel shows dashes).
 * Dates are 'YYYY-MM-DD'.
 */

const text = z.string().max(200).nullish();
const date = z.string().max(40).nullish();

/** One endorsement as the record gives it, with the removal date computed when it is stored. */
export const endorsementRecordSchema = z.object({
  offence_code: z.string().max(10),
  offence_date: date,
  /** The DVLA calls the conviction date unconfirmed: it may be missing. */
  conviction_date: date,
  penalty_points: z.number().int().min(0).max(99).nullish(),
  /** endorsementEndDate: null when neither date exists. */
  removal_date: date,
  /** A disqualification that came with it, in words ('6 months'), if any. */
  disqualification: text,
});
export type EndorsementRecord = z.infer<typeof endorsementRecordSchema>;

/** One entitlement (licence category): its type, dates and restrictions. */
export const entitlementRecordSchema = z.object({
  category: z.string().max(10),
  /** 'Full' or 'Provisional'. */
  type: text,
  valid_from: date,
  valid_to: date,
  restrictions: z
    .array(z.object({ code: z.string().max(10), text: text }))
    .max(30)
    .nullish(),
});
export type EntitlementRecord = z.infer<typeof entitlementRecordSchema>;

/** The record's endorsements with their removal dates (the domain's endorsement rules). */
export function withRemovalDates(
  endorsements: readonly Omit<EndorsementRecord, 'removal_date'>[],
): EndorsementRecord[] {
  return endorsements.map((e) => ({ ...e, removal_date: endorsementEndDate(e) }));
}

/** The penalty points of a record's endorsements still on it on `today` ('YYYY-MM-DD'). */
export function currentPoints(endorsements: readonly EndorsementRecord[], today: string): number {
  return endorsements
    .filter((e) => !e.removal_date || e.removal_date > today)
    .reduce((sum, e) => sum + (e.penalty_points ?? 0), 0);
}

/** The dash a panel shows for an unrecognised code's table columns (spec point 8). */
export const NO_VALUE = '—';

/**
 * An endorsement as a panel lists it: the table's description, its points range and period
 * ('Unrecognised code' with dashes for a code the table does not know, spec point 8).
 */
export function endorsementRow(e: EndorsementRecord): {
  code: string;
  description: string;
  tablePoints: string;
  period: string;
} {
  const entry = endorsementCode(e.offence_code);
  if (!entry) {
    return {
      code: e.offence_code,
      description: UNRECOGNISED_CODE,
      tablePoints: NO_VALUE,
      period: NO_VALUE,
    };
  }
  return {
    code: e.offence_code,
    description: entry.description,
    tablePoints: formatEndorsementPoints(entry.points),
    period: `${entry.years} years`,
  };
}
