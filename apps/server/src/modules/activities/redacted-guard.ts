import { RESULT_REDACTED_DETAIL } from '@kestrel/domain';
import type { Tx } from '../../db/connection.js';
import { ConflictError } from '../../platform/errors.js';
import { activityRedaction } from '../retention/redact.js';

/**
 * A staff member's write of a result (a PATCH of result data, the manual right-to-work check, the
 * manual identity approval, an adult-first stage, the Davis email confirmation) to an activity
 * whose result was redacted (issue 34) would put the removed content back: 409
 * RESULT_REDACTED_DETAIL. Call it with the activity locked, before writing. writeActivity calls
 * it whenever result data is written; a kind's own write calls it first as well, so its 409
 * comes before its other refusals.
 */
export async function refuseIfRedacted(
  tx: Tx,
  activity: { customerId: number; id: number },
): Promise<void> {
  if (await activityRedaction(tx, activity)) throw new ConflictError(RESULT_REDACTED_DETAIL);
}
