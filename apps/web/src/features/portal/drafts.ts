/**
 * What the person typed but could not save yet (an invalid form left with Back, a reload), kept
 * in this tab's session storage per case and form, so nothing typed is lost.
 */
const keyOf = (caseId: number | string, form: string) => `kestrel:portal-draft:${caseId}:${form}`;

export function readDraft<T extends object>(
  caseId: number | string,
  form: string,
): Partial<T> | null {
  try {
    const raw = sessionStorage.getItem(keyOf(caseId, form));
    if (!raw) return null;
    const value: unknown = JSON.parse(raw);
    return typeof value === 'object' && value !== null ? (value as Partial<T>) : null;
  } catch {
    return null;
  }
}

export function writeDraft(caseId: number | string, form: string, values: object): void {
  try {
    sessionStorage.setItem(keyOf(caseId, form), JSON.stringify(values));
  } catch {
    // Storage full or blocked: the form still holds the values while it is open.
  }
}

export function clearDraft(caseId: number | string, form: string): void {
  try {
    sessionStorage.removeItem(keyOf(caseId, form));
  } catch {
    // Nothing to clear.
  }
}
