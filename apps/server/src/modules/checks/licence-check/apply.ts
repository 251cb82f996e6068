import { type ProcessingData, readResultData } from '@kestrel/domain';
import type { ServiceContext } from '../../../platform/service-context.js';
import type { DavisCheck } from '../../../providers/davis/provider.js';
import { saveActivity, today } from '../activity.js';
import type { LockedActivity } from '../kind.js';
import { isTracked, mapCheck } from './check.js';

/**
 * Applies a check of the service (a poll's answer, the answer to the email confirmation) to the
 * activity, logged in `processing`, in the caller's transaction: its state and result.
 */
export async function applyCheck(
  ctx: ServiceContext,
  a: LockedActivity,
  processing: ProcessingData,
  check: DavisCheck,
): Promise<{ row: LockedActivity['row']; tracking: boolean }> {
  const previous = readResultData('licence-check', a.row.resultData);
  const mapped = mapCheck(check, previous, today(ctx), null);
  const { activity } = await saveActivity(
    ctx,
    a,
    { ...processing, reference: check.driver_id, last_error: null },
    { state: mapped.state, resultData: a.kind.resultSchema.parse(mapped.resultData) },
  );
  return { row: activity, tracking: isTracked(check.status) };
}
