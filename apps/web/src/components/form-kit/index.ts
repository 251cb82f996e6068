// The web's one form kit (issue 30): the error summary, fields bound to react-hook-form, the
// date selector, the address editors and the form wrapper mapping a 400 to fields and summary.

export { DateSelector, type DateSelectorProps } from '../date-selector';
export { PhoneField } from '../phone-field';
export {
  type AddressForm,
  addressLine,
  addressSchema,
  addressToday,
  addressToForm,
} from './address-form';
export {
  ADDRESS_LABELS,
  type AddressEditing,
  AddressEditorCard,
  AddressFields,
  AddressHistoryList,
  type AddressWording,
  addressEditorTitle,
  overlapsOf,
} from './address-history';
export { AddressLookup } from './address-lookup';
export { BasicDetailsFields, type BasicDetailsFieldValues } from './basic-details-fields';
export { CountryField, DbsTextField, LOCKED_REASON, LockedNotice } from './case-fields';
export {
  ErrorSummary,
  focusField,
  type SummaryError,
  summaryText,
} from './error-summary';
export {
  type Bound,
  CheckboxField,
  DateField,
  EmailField,
  MultiSelectField,
  NativeSelectField,
  PasswordField,
  PhoneNumberField,
  SelectField,
  TextareaField,
  TextField,
} from './fields';
export { flattenServerErrors, issuesByField, summaryOfErrors } from './form-errors';
export {
  KitForm,
  type KitFormState,
  unwrap,
  useFieldLabel,
  useKitForm,
} from './kit-form';
export { parsePayload, schemaResolver, text } from './schema-form';
export { applyServerFieldErrors, type ServerErrorTarget } from './server-errors';
export {
  EMPTY_SINGLE_ADDRESS,
  SingleAddressFields,
  type SingleAddressValues,
} from './single-address';
