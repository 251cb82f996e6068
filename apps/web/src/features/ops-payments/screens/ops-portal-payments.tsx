import { PaymentsList } from '../components/payments-list';

/** Every customer's portal payments (/ops/portal-payments). */
export default function OpsPortalPayments() {
  return <PaymentsList source="portal" title="Portal payments" />;
}
