/** Small access rules of spec points 2, 3 and 6 that the server enforces and the web app mirrors. */

/** Process requirements can be edited only by ops or in a customer's demo mode. */
export function canEditProcessRequirements(user: { isOps: boolean; demoMode: boolean }): boolean {
  return user.isOps || user.demoMode;
}

/** Activity notes are visible (and editable) only in an operations session. */
export function canSeeNotes(session: { isOpsSession: boolean }): boolean {
  return session.isOpsSession;
}

/** Records that came from the identity-service provider are locked: no edit, no delete. */
export function isLockedRecord(record: { source?: string | null }): boolean {
  return record.source === 'idsp';
}

/** A subject without a date of birth or a terms agreement must complete their profile first. */
export function needsProfileCompletion(subject: {
  dob?: string | null;
  terms_agreed_at?: string | null;
}): boolean {
  return !subject.dob || !subject.terms_agreed_at;
}
