import { PaymentDetail } from '../components/payment-detail';

/** One portal payment with its provider's events and refunds (/ops/portal-payments/:id). */
export default function OpsPortalPayment() {
  return <PaymentDetail source="portal" />;
}
