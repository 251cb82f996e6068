import { type BrandDetails, brandDetails } from '@kestrel/domain';
import type { MantineColorsTuple } from '@mantine/core';

/**
 * A white-label brand (spec point 1), chosen by host name: its name, hosts, contact details and
 * colour come from the domain's brand details (the server brands its emails with them too).
 */
export interface Brand extends BrandDetails {
  /** Theme colour: a 10-shade palette; shade 7 is the one buttons and links use. */
  palette: MantineColorsTuple;
  /** Publishable (client-side) key of the payment provider. */
  paymentKey: string;
  Logo: (props: { size?: number }) => React.JSX.Element;
}

function KestrelLogo({ size = 32 }: { size?: number }) {
  return (
    <svg width={size} height={size} viewBox="0 0 32 32" aria-hidden="true" focusable="false">
      <rect width="32" height="32" rx="8" fill="#215fa4" />
      <path
        d="M6 19.5c5.5-.6 9.6-3.6 12.6-8.8l7.4 2.1-5.6 2.2c-1.2 4.6-4.6 7.6-10 8.6z"
        fill="#fff"
      />
      <circle cx="21.4" cy="12.6" r="1.1" fill="#215fa4" />
    </svg>
  );
}

function HarrierLogo({ size = 32 }: { size?: number }) {
  return (
    <svg width={size} height={size} viewBox="0 0 32 32" aria-hidden="true" focusable="false">
      <path d="M16 2.5 27 6.6v8.2c0 7-4.6 12.2-11 14.7C9.6 27 5 21.8 5 14.8V6.6z" fill="#087f5b" />
      <path
        d="m10.5 16 3.8 3.8 7.4-8"
        stroke="#fff"
        strokeWidth="2.6"
        fill="none"
        strokeLinecap="round"
        strokeLinejoin="round"
      />
    </svg>
  );
}

export const BRANDS: readonly Brand[] = [
  {
    ...brandDetails('kestrel'),
    palette: [
      '#eef4fb',
      '#d9e6f5',
      '#b0cbeb',
      '#84aee0',
      '#5f95d6',
      '#4785d0',
      '#3a7dce',
      '#215fa4',
      '#1b548f',
      '#0f4c8a',
    ],
    paymentKey: 'pk_test_kestrel_51Hx0KestrelDemo',
    Logo: KestrelLogo,
  },
  {
    ...brandDetails('harrier'),
    palette: [
      '#e6fcf5',
      '#c3fae8',
      '#96f2d7',
      '#63e6be',
      '#38d9a9',
      '#20c997',
      '#12b886',
      '#087f5b',
      '#06704f',
      '#05664a',
    ],
    paymentKey: 'pk_test_harrier_51Hx0HarrierDemo',
    Logo: HarrierLogo,
  },
];

/** The brand for a host name; unknown hosts get the first brand. */
export function brandForHost(hostname: string): Brand {
  const host = hostname.toLowerCase();
  const [fallback] = BRANDS;
  if (!fallback) throw new Error('No brand configured');
  return BRANDS.find((b) => b.hosts.includes(host)) ?? fallback;
}

/** The brand of this page. */
export const currentBrand: Brand = brandForHost(
  typeof window === 'undefined' ? 'localhost' : window.location.hostname,
);

/** Theme colour and favicon of the brand on the page (the HTML ships neutral defaults). */
export function applyBrandToDocument(brand: Brand): void {
  const colour = brand.palette[7];
  document.querySelector('meta[name="theme-color"]')?.setAttribute('content', colour);
  const icon = document.querySelector<HTMLLinkElement>('link[rel="icon"]');
  if (icon) {
    const svg =
      brand.id === 'harrier'
        ? `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32"><path d="M16 2.5 27 6.6v8.2c0 7-4.6 12.2-11 14.7C9.6 27 5 21.8 5 14.8V6.6z" fill="${colour}"/><path d="m10.5 16 3.8 3.8 7.4-8" stroke="#fff" stroke-width="2.6" fill="none" stroke-linecap="round" stroke-linejoin="round"/></svg>`
        : `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32"><rect width="32" height="32" rx="8" fill="${colour}"/><path d="M6 19.5c5.5-.6 9.6-3.6 12.6-8.8l7.4 2.1-5.6 2.2c-1.2 4.6-4.6 7.6-10 8.6z" fill="#fff"/></svg>`;
    icon.href = `data:image/svg+xml,${encodeURIComponent(svg)}`;
  }
}
