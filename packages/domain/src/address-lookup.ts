import { formatGbrPostcode } from './postcode.js';
import { postTownOf } from './postcode-areas.js';

/** One address lookup format (the UK national address data, upper case). */
export interface OsAddress {
  SUB_BUILDING_NAME?: string;
  BUILDING_NAME?: string;
  BUILDING_NUMBER?: string | number;
  DEPENDENT_THOROUGHFARE_NAME?: string;
  THOROUGHFARE_NAME?: string;
  DEPENDENT_LOCALITY?: string;
  POST_TOWN?: string;
  POSTCODE?: string;
}

/** The other lookup source (international). `address_format` 2 means structured fields. */
export interface IntlAddress {
  country_iso?: string;
  postal_code?: string;
  town_city?: string;
  address_format?: number | string;
  building?: string;
  street?: string;
  locality?: string;
  address_line1?: string;
  address_line2?: string;
  address_line3?: string;
  address_line4?: string;
  address_line5?: string;
  address_line6?: string;
}

/** The address fields a lookup fills in on the address form. */
export interface ComposedAddress {
  country: string;
  line_one: string;
  line_two: string;
  town: string;
  postcode: string;
}

const join = (...parts: Array<string | number | undefined | null>) =>
  parts
    .map((p) => String(p ?? '').trim())
    .filter((p) => p !== '')
    .join(' ');

/** 'HIGH STREET' → 'High Street'; mixed-case input is left alone. */
export function titleCase(value: string): string {
  if (value !== value.toUpperCase()) return value;
  return value
    .toLowerCase()
    .replace(/(^|[\s\-/(])(\p{L})/gu, (_m, sep: string, ch: string) => sep + ch.toUpperCase());
}

function gbrPostcode(country: string, postcode: string): string {
  return country === 'GBR' ? formatGbrPostcode(postcode) : postcode.trim();
}

/**
 * Lines from the UK format: with a sub-building or building name, line one is that name and
 * line two the number, street parts and locality; otherwise line one is the number and street
 * parts and line two the locality.
 */
export function composeOsAddress(a: OsAddress): ComposedAddress {
  const name = join(a.SUB_BUILDING_NAME, a.BUILDING_NAME);
  const street = join(a.BUILDING_NUMBER, a.DEPENDENT_THOROUGHFARE_NAME, a.THOROUGHFARE_NAME);
  const [lineOne, lineTwo] = name
    ? [name, join(street, a.DEPENDENT_LOCALITY)]
    : [street, join(a.DEPENDENT_LOCALITY)];
  return {
    country: 'GBR',
    line_one: titleCase(lineOne),
    line_two: titleCase(lineTwo),
    town: titleCase(join(a.POST_TOWN)),
    postcode: gbrPostcode('GBR', a.POSTCODE ?? ''),
  };
}

/** Lines from the international format, structured (format 2) or as free address lines. */
export function composeIntlAddress(a: IntlAddress): ComposedAddress {
  const iso = (a.country_iso ?? '').trim().toUpperCase();
  const country = iso === 'GB' ? 'GBR' : iso;
  let lineOne: string;
  let lineTwo: string;
  if (Number(a.address_format) === 2) {
    [lineOne, lineTwo] = a.building?.trim()
      ? [join(a.building), join(a.street, a.locality)]
      : [join(a.street), join(a.locality)];
  } else {
    lineOne = join(a.address_line1);
    lineTwo = join(
      a.address_line2,
      a.address_line3,
      a.address_line4,
      a.address_line5,
      a.address_line6,
    );
  }
  return {
    country,
    line_one: lineOne,
    line_two: lineTwo,
    town: join(a.town_city),
    postcode: gbrPostcode(country, a.postal_code ?? ''),
  };
}

/** One OS Places result's `DPA` record: the fields Kestrel reads (spec point 3, PROVIDERS.md). */
export interface OsDpa extends OsAddress {
  UPRN: string;
  UDPRN: string;
  ADDRESS: string;
  ORGANISATION_NAME?: string;
  DEPARTMENT_NAME?: string;
  DEPENDENT_LOCALITY?: string;
  DOUBLE_DEPENDENT_LOCALITY?: string;
}

const FAKE_STREETS = [
  'HIGH STREET',
  'CHURCH ROAD',
  'STATION ROAD',
  'VICTORIA AVENUE',
  'MILL LANE',
  'PARK VIEW',
  'KINGS WAY',
  'ORCHARD CLOSE',
];
const FAKE_LOCALITIES = ['', 'NORTHSIDE', '', 'OLD TOWN', ''];

/** A small stable hash of a string (FNV-1a, 32 bits). */
function hashOf(value: string): number {
  let h = 0x811c9dc5;
  for (const ch of value) {
    h ^= ch.codePointAt(0) ?? 0;
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h;
}

/**
 * The fake address lookup (a demo-mode customer, and the default without OS credentials): the
 * same postcode always gives the same 6 to 9 addresses in OS Places' DPA shape, houses by
 * number and a few named buildings with flats, so both line compositions of point 9 show. The
 * post town is the postcode area's ('M3 3HN': Manchester); an area that does not exist finds
 * nothing, as the live search would.
 */
export function fakeOsAddresses(postcode: string): OsDpa[] {
  const code = formatGbrPostcode(postcode);
  const town = postTownOf(code);
  if (town === null) return [];
  const h = hashOf(code);
  const street = FAKE_STREETS[h % FAKE_STREETS.length] ?? 'HIGH STREET';
  const locality = FAKE_LOCALITIES[(h >>> 6) % FAKE_LOCALITIES.length] ?? '';
  const count = 6 + ((h >>> 9) % 4);
  const first = 1 + ((h >>> 12) % 40);
  const uprnBase = 100_000_000 + (h % 800_000_000);
  return Array.from({ length: count }, (_, i): OsDpa => {
    const flat = i >= count - 2;
    const number = String(first + i * 2);
    const parts: OsAddress = flat
      ? { SUB_BUILDING_NAME: `FLAT ${i - count + 3}`, BUILDING_NAME: 'THE OLD MILL' }
      : { BUILDING_NUMBER: number };
    const dpa: OsDpa = {
      UPRN: String(uprnBase + i),
      UDPRN: String(10_000_000 + ((h + i) % 89_999_999)),
      ADDRESS: '',
      ...parts,
      THOROUGHFARE_NAME: street,
      ...(locality ? { DEPENDENT_LOCALITY: locality } : {}),
      POST_TOWN: town,
      POSTCODE: code,
    };
    dpa.ADDRESS = [
      dpa.SUB_BUILDING_NAME,
      dpa.BUILDING_NAME,
      [dpa.BUILDING_NUMBER, street].filter(Boolean).join(' '),
      locality,
      town,
      code,
    ]
      .filter((p) => p)
      .join(', ');
    return dpa;
  });
}
