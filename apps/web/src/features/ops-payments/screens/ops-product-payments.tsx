import { PaymentsList } from '../components/payments-list';

/** Every customer's product payments (/ops/product-payments). */
export default function OpsProductPayments() {
  return <PaymentsList source="product" title="Product payments" />;
}
