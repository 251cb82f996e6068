/** Penalty points: a fixed value, a range, or `null` where none apply (TT99, MR codes). */
export type EndorsementPoints = { value: number } | { min: number; max: number } | null;

/**
 * Which date the endorsement period runs from: the offence, the conviction, or (in-charge and
 * specimen codes) the conviction when known, else the offence.
 */
export type EndorsementCountedFrom = 'offence' | 'conviction' | 'conviction_or_offence';

export interface EndorsementCodeEntry {
  code: string;
  group: string;
  description: string;
  points: EndorsementPoints;
  years: number;
  counted_from: EndorsementCountedFrom;
}
