import type { ApplicationState } from '@kestrel/domain';
import { Badge } from '@mantine/core';
import { safeNext } from '../../../config/paths';

const COLOURS: Record<ApplicationState, string> = {
  awaiting_payment: 'orange',
  in_progress: 'blue',
  more_info_requested: 'yellow',
  granted: 'teal',
  refused: 'red',
  withdrawn: 'gray',
  expired: 'gray',
};

/** An application's state with its label, never truncated (as the case states' badge). */
export function ApplicationStateBadge({
  state,
  label,
}: {
  state: ApplicationState;
  label: string;
}) {
  return (
    <Badge
      variant="light"
      color={COLOURS[state]}
      data-state={state}
      data-testid="application-state"
      style={{ flexShrink: 0, overflow: 'visible', minWidth: 'max-content' }}
      styles={{ label: { overflow: 'visible', textOverflow: 'clip' } }}
    >
      {label}
    </Badge>
  );
}

/**
 * The button that takes an application on from its `next_url`: paying the fee (the payment
 * portal), the case portal, or the application's own page; none without an address.
 */
export function nextStepOf(
  nextUrl: string | null,
  feeDisplay: string,
): { to: string; label: string } | null {
  const to = nextUrl ? safeNext(nextUrl, '') : '';
  if (!to) return null;
  if (to.startsWith('/payment-portal/')) return { to, label: `Pay the fee of ${feeDisplay}` };
  if (to.startsWith('/s/case-portal/')) return { to, label: 'Continue your application' };
  return { to, label: 'See your application' };
}

/**
 * The holder's "Renew" (issue 32): from the granted application of a licence that can be renewed,
 * to its definition's open renewal portal (`renew_url`, given by the server: the domain's
 * isRenewableLicence and an open renewal portal); none without one.
 */
export function renewStepOf(renewUrl: string | null): { to: string; label: string } | null {
  const to = renewUrl ? safeNext(renewUrl, '') : '';
  return to ? { to, label: 'Renew' } : null;
}
