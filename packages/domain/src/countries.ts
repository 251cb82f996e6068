import {
  COUNTRY_TABLE,
  DEPRECATED_COUNTRY_CODES,
  EBULK_MISSING_COUNTRY_CODES,
} from './country-data.js';

/** A country map entry (spec point 3), keyed by ISO 3166-1 alpha-3 code. */
export interface CountryEntry {
  name: string;
  nationality: string;
  deprecated: boolean;
  ebulk_missing: boolean;
}

export type CountryMap = Readonly<Record<string, CountryEntry>>;

function parseCountries(): Record<string, CountryEntry> {
  const map: Record<string, CountryEntry> = {};
  for (const line of COUNTRY_TABLE.trim().split('\n')) {
    const [code = '', name = '', nationality = ''] = line.split('|');
    map[code] = {
      name,
      nationality,
      deprecated: DEPRECATED_COUNTRY_CODES.includes(code),
      ebulk_missing: EBULK_MISSING_COUNTRY_CODES.includes(code),
    };
  }
  return map;
}

/** Every ISO 3166-1 country plus a few historic codes marked deprecated. */
export const COUNTRIES: CountryMap = parseCountries();

/** Nationalities that count as British (spec point 9). */
export const BRITISH_NATIONALITY_CODES = ['GBR', 'GGY', 'IMN', 'JEY'] as const;

export function isBritishNationality(code: string | null | undefined): boolean {
  return (BRITISH_NATIONALITY_CODES as readonly string[]).includes(code ?? '');
}

/** A country picker's list: GBR first, deprecated codes hidden, the rest by name. */
export function sortedCountries(
  map: CountryMap = COUNTRIES,
): Array<CountryEntry & { code: string }> {
  const list = Object.entries(map)
    .filter(([, entry]) => !entry.deprecated)
    .map(([code, entry]) => ({ code, ...entry }));
  const rest = list
    .filter((c) => c.code !== 'GBR')
    .sort((a, b) => a.name.localeCompare(b.name, 'en'));
  const gbr = list.filter((c) => c.code === 'GBR');
  return [...gbr, ...rest];
}

/**
 * False when the criminal-record service cannot take this country at the standard or enhanced
 * level, so the form must ask for a '(for DBS)' alternative. Unknown codes count as unsupported.
 */
export function isEbulkSupported(code: string | null | undefined, map: CountryMap = COUNTRIES) {
  const entry = map[code ?? ''];
  return entry !== undefined && !entry.ebulk_missing;
}

/**
 * The nationality of a code as the person chose it ('GBR' → 'British'), the country's name when
 * the table has no nationality for it, or the code itself when unknown.
 */
export function nationalityName(code: string, map: CountryMap = COUNTRIES): string {
  const entry = map[code];
  return entry ? entry.nationality || entry.name : code;
}

/** The country's name, or the code itself when unknown. */
export function countryName(code: string, map: CountryMap = COUNTRIES): string {
  return map[code]?.name ?? code;
}
