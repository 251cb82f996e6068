/** Why the name on the identity documents differs from the account name (spec point 5). */
export const NAME_MISMATCH_REASONS = [
  { value: 'document_previous_name', label: 'Previous name on document(s)' },
  { value: 'document_short_name', label: 'Shortened name on document(s)' },
  { value: 'account_name_incorrect', label: 'Account name is not Full Legal Name' },
  { value: 'other', label: 'Other' },
] as const;
export type NameMismatchReason = (typeof NAME_MISMATCH_REASONS)[number]['value'];

/** The label of a reason code, or the code itself when unknown. */
export function nameMismatchLabel(value: string): string {
  return NAME_MISMATCH_REASONS.find((r) => r.value === value)?.label ?? value;
}
