import { CUSTOMER_PAYMENT_STATE_LABELS, type CustomerPaymentOut } from '@kestrel/domain';
import { StateBadge } from '../../../components/state-badge';

/** A payment's state in words (Paid, Declined, Partly refunded...). */
export function PaymentStateBadge({ state }: { state: CustomerPaymentOut['state'] }) {
  return <StateBadge state={`payment-${state}`} label={CUSTOMER_PAYMENT_STATE_LABELS[state]} />;
}
