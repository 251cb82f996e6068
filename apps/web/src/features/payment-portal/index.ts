// What other features use of the payment portal: the card checks and the provider's link check.
export { type CardValues, digitsOf, safeUrl, validateCard } from './card-form';
