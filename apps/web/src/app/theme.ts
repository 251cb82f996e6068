import { type CSSVariablesResolver, createTheme } from '@mantine/core';
import type { Brand } from './brands';

/** Mantine theme from the brand's colour. */
export function themeFor(brand: Brand) {
  return createTheme({
    primaryColor: 'brand',
    // Filled buttons carry white text: shade 8 in dark mode keeps it at 4.5:1 or better on both
    // brands (shade 5 gave 3.9:1 on Kestrel's blue and 2.1:1 on Harrier's green).
    primaryShade: { light: 7, dark: 8 },
    colors: { brand: brand.palette },
    defaultRadius: 'md',
    cursorType: 'pointer',
    fontFamily:
      'Inter, "Segoe UI", system-ui, -apple-system, "Helvetica Neue", Arial, "Noto Sans", sans-serif',
    headings: { fontWeight: '650' },
    components: {
      Button: { defaultProps: { fw: 600 } },
      // Links inside text must not rely on colour alone (WCAG 1.4.1).
      Anchor: { defaultProps: { underline: 'always' } },
      TextInput: { defaultProps: { size: 'md' } },
      PasswordInput: { defaultProps: { size: 'md' } },
      // Every dialog's close button has a name, also while it fades out (axe button-name).
      Modal: { defaultProps: { closeButtonProps: { 'aria-label': 'Close' } } },
    },
  });
}

/**
 * Mantine's default dimmed and placeholder colours fail WCAG AA contrast (about 3.3:1 on white);
 * these reach 4.5:1 or better on the light and dark backgrounds.
 */
const LIGHT_VARIANT_COLORS = [
  'gray',
  'red',
  'pink',
  'grape',
  'violet',
  'indigo',
  'blue',
  'cyan',
  'green',
  'lime',
  'yellow',
  'orange',
  'teal',
  'brand',
];

/**
 * White on Mantine's filled red (shade 6 light, 3.3:1; shade 8 dark, 4.4:1) fails AA: the
 * 'Flagged' badge and the red buttons (archive, cancel) use shade 9 (5.4:1) in both schemes.
 */
const RED_FILLED = {
  '--mantine-color-red-filled': 'var(--mantine-color-red-9)',
  '--mantine-color-red-filled-hover': '#a61e1e',
};

export const cssVariablesResolver: CSSVariablesResolver = () => ({
  variables: {},
  light: {
    ...RED_FILLED,
    '--mantine-color-dimmed': '#5c636a',
    '--mantine-color-placeholder': '#6b7280',
    '--mantine-color-error': 'var(--mantine-color-red-9)',
    // Text of 'light' variants (badges, alerts) uses shade 6 by default: too pale on its tint.
    ...Object.fromEntries(
      LIGHT_VARIANT_COLORS.map((c) => [
        `--mantine-color-${c}-light-color`,
        `var(--mantine-color-${c}-9)`,
      ]),
    ),
    // Shade 9 of these is still under 4.5:1 on its own tint.
    '--mantine-color-yellow-light-color': '#6e4a00',
    '--mantine-color-orange-light-color': '#a33b00',
    '--mantine-color-lime-light-color': '#3f6212',
    '--mantine-color-green-light-color': '#1f6b30',
    '--mantine-color-teal-light-color': '#05664a',
  },
  dark: {
    ...RED_FILLED,
    // Shade 4 of the brand falls under 4.5:1 on tinted panels (a link inside an alert).
    '--mantine-color-anchor': 'var(--mantine-color-brand-3)',
    '--mantine-color-dimmed': '#b8b8b8',
    '--mantine-color-placeholder': '#a6a7ab',
    '--mantine-color-error': 'var(--mantine-color-red-4)',
  },
});
