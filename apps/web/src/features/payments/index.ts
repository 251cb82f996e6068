// What other features use of payments: the case detail's 'Payment needed' banner.
export { CasePaymentBanner } from './components/case-payment-banner';
