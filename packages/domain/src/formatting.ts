import { format } from 'date-fns/format';
import { isValid } from 'date-fns/isValid';
import { parseISO } from 'date-fns/parseISO';

const POUNDS = new Intl.NumberFormat('en-GB', { style: 'currency', currency: 'GBP' });

/** Money is stored in pence and shown as pounds with two decimals: 1250 → '£12.50'. */
export function formatPence(pence: number): string {
  return POUNDS.format(pence / 100);
}

/**
 * Pounds as typed ('12.50', '£12.5', '1,200', '12') in pence: 1250; null when it is not an
 * amount of pounds with at most two decimals (negative amounts are not money typed in).
 */
export function parsePounds(text: string): number | null {
  const match = /^£?(\d{1,3}(?:,\d{3})+|\d+)(?:\.(\d{1,2}))?$/.exec(text.trim());
  if (!match) return null;
  const [, whole = '', fraction = ''] = match;
  return Number(whole.replaceAll(',', '')) * 100 + Number(fraction.padEnd(2, '0'));
}

/** Pence as pounds for an input to edit: 1250 → '12.50'. */
export function penceToPounds(pence: number): string {
  return (pence / 100).toFixed(2);
}

export const BILLING_TRIGGERS = ['weekly', 'monthly', 'yearly'] as const;
export type BillingTrigger = (typeof BILLING_TRIGGERS)[number];
const UNIT: Record<BillingTrigger, string> = { weekly: 'week', monthly: 'month', yearly: 'year' };

/** 'Every week' when the interval is 1, else 'Every N weeks' (months, years likewise). */
export function billingCycleText(interval: number, triggered: BillingTrigger): string {
  const unit = UNIT[triggered];
  return interval === 1 ? `Every ${unit}` : `Every ${interval} ${unit}s`;
}

export const DATE_DISPLAY_FORMAT = 'do MMM y';

/** Dates display as 'do MMM y' ('1st Jan 2024'); empty for a missing or invalid date. */
export function formatDate(date: string | Date | null | undefined): string {
  if (date === null || date === undefined || date === '') return '';
  const value = typeof date === 'string' ? parseISO(date) : date;
  return isValid(value) ? format(value, DATE_DISPLAY_FORMAT) : '';
}

/** 'YYYY-MM-DD' of a date in local time (UTC on the server and in tests). */
export function isoDate(date: Date): string {
  return format(date, 'yyyy-MM-dd');
}
