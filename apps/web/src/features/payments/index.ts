// What other features use of payments: the case detail's 'Payment needed' banner.
export { CasePaymentBanner } from './components/case-payment-banner';
// and the ops payments screens: a payment's state in words
export { PaymentStateBadge } from './components/payment-state-badge';
