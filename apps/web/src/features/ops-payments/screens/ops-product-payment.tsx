import { PaymentDetail } from '../components/payment-detail';

/** One product payment with its provider's events and refunds (/ops/product-payments/:id). */
export default function OpsProductPayment() {
  return <PaymentDetail source="product" />;
}
