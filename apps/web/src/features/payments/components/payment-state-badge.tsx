import { CUSTOMER_PAYMENT_STATE_LABELS, type CustomerPaymentOut } from '@kestrel/domain';
import { StateBadge } from '../../../components/state-badge';

/** A payment's state in words (Paid, Declined, Partly refunded...), for customers and ops. */
export function PaymentStateBadge({ state }: { state: CustomerPaymentOut['state'] }) {
  return (
    <StateBadge
      state={`payment-${state}`}
      label={CUSTOMER_PAYMENT_STATE_LABELS[state]}
      testId="payment-state"
    />
  );
}
