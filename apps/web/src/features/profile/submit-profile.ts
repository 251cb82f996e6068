import type { FieldValues, Path } from 'react-hook-form';
import { actionSuccessMessage, failureMessage } from '../../api/messages';
import { applyServerFieldErrors, type ServerErrorTarget } from '../../components/form-kit';
import { notify } from '../../lib/notify';
import { type ProfileChanges, saveProfile } from '../../lib/session/profile';

/**
 * Saves the user's own profile and reports it the catalogue's way: a success toast, or the
 * server's field errors on the named inputs plus an error toast.
 */
export async function submitProfile<T extends FieldValues>(
  changes: ProfileChanges,
  fields: readonly Path<T>[],
  form: ServerErrorTarget<T>,
): Promise<void> {
  const r = await saveProfile(changes);
  if (r.ok) {
    notify.success(actionSuccessMessage('update', 'profile'));
    return;
  }
  applyServerFieldErrors<T>(form, r.data, fields);
  const message = failureMessage(r, { action: 'update', name: 'profile' });
  if (message) notify.error(message);
}
