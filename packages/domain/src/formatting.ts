import { format } from 'date-fns/format';
import { isValid } from 'date-fns/isValid';
import { parseISO } from 'date-fns/parseISO';

const POUNDS = new Intl.NumberFormat('en-GB', { style: 'currency', currency: 'GBP' });

/** Money is stored in pence and shown as pounds with two decimals: 1250 → '£12.50'. */
export function formatPence(pence: number): string {
  return POUNDS.format(pence / 100);
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
