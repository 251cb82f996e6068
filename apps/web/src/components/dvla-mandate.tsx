import { DVLA_CONSENT_YEARS, formatDate } from '@kestrel/domain';
import { Text } from '@mantine/core';

/**
 * The DVLA mandate's words, one copy for the portal's driver-data section (where it is first
 * given) and /s/dvla-reconsent (where it is renewed): the declaration the subject agrees to and
 * what it lets the customer do, for how long.
 */
export const DVLA_MANDATE_LABEL =
  'I consent to these checks of my driving licence and driver record with the DVLA.';

/** `day` (YYYY-MM-DD) plus the mandate's 3 years: when a mandate given that day ends. */
export function mandateEndsFrom(day: string): string {
  return `${Number(day.slice(0, 4)) + DVLA_CONSENT_YEARS}${day.slice(4, 10)}`;
}

/**
 * What the mandate lets `customerName` ask the DVLA, and until when (`until`, an ISO date or
 * timestamp); `fromToday` while it is being given (or renewed) now.
 */
export function DvlaMandateText({
  customerName,
  until,
  fromToday,
}: {
  customerName: string;
  until: string;
  fromToday: boolean;
}) {
  return (
    <Text size="sm">
      {customerName} will ask the DVLA for your licence details, endorsements, entitlements and,
      when needed, CPC and tachograph cards. Your consent (mandate) lasts {DVLA_CONSENT_YEARS} years
      {fromToday ? ' from today' : ''}, until{' '}
      <strong data-testid="mandate-expiry">{formatDate(until)}</strong>. You can withdraw it at any
      time from your consents.
    </Text>
  );
}
