/**
 * The white-label brands (spec point 1), chosen by host name: their names, hosts, contact
 * details and theme colour, hard-coded here and only here (the web adds its logos and palettes;
 * the server brands its emails with these).
 */
export interface BrandDetails {
  id: 'kestrel' | 'harrier';
  name: string;
  tagline: string;
  hosts: readonly string[];
  /** The support line's phone is written as it reads (national format): it is not stored data. */
  contact: { email: string; phone: string; address: string };
  /** The theme colour buttons and links use (shade 7 of the web's palette). */
  colour: string;
}

const KESTREL: BrandDetails = {
  id: 'kestrel',
  name: 'Kestrel Checks',
  tagline: 'Background, identity and licence checks without the paperwork.',
  hosts: ['localhost', 'kestrel.test', 'app.kestrelchecks.co.uk'],
  contact: {
    email: 'support@kestrelchecks.co.uk',
    phone: '0161 496 0732',
    address: '14 Quay Street, Manchester M3 3HN',
  },
  colour: '#215fa4',
};

const HARRIER: BrandDetails = {
  id: 'harrier',
  name: 'Harrier Vetting',
  tagline: 'Safer hiring and licensing for councils and care providers.',
  hosts: ['127.0.0.1', 'harrier.test', 'app.harriervetting.co.uk'],
  contact: {
    email: 'help@harriervetting.co.uk',
    phone: '0113 496 0519',
    address: '2 Wellington Place, Leeds LS1 4AP',
  },
  colour: '#087f5b',
};

/** Every brand; the first is the one an unknown host gets. */
export const BRAND_DETAILS: readonly BrandDetails[] = [KESTREL, HARRIER];

/** The brand whose host list holds `hostname` (no port), or null. */
export function knownBrandForHost(hostname: string): BrandDetails | null {
  const host = hostname.toLowerCase();
  return BRAND_DETAILS.find((b) => b.hosts.includes(host)) ?? null;
}

/** The brand for a host name (no port); unknown hosts get the first brand. */
export function brandDetailsForHost(hostname: string): BrandDetails {
  return knownBrandForHost(hostname) ?? KESTREL;
}

/** One brand by id. */
export function brandDetails(id: BrandDetails['id']): BrandDetails {
  const b = BRAND_DETAILS.find((x) => x.id === id);
  if (!b) throw new Error(`No brand ${id}`);
  return b;
}
