import {
  type CaseActivityState,
  currentPoints,
  type LicenceCheckResultData,
  licenceChanges,
  licenceRisk,
  nextCheckDate,
  withRemovalDates,
} from '@kestrel/domain';
import { z } from 'zod';
import type { DavisCheck } from '../../../providers/davis/provider.js';

/*
 * A licence-checking service's check as the activity's state and result data (spec points 2
 * and 4): AwaitingCheck and DQ3 stay in progress (polled); EmailUnconfirmed waits for operations
 * (the Davis email confirmation); Checked completes it with its risk and the next check date the
 * risk sets; NotFound leaves it for a decision.
 */

const nullable = <T extends z.ZodType>(t: T) => t.nullable();

/** The service's check, as its answers (and the provider log) hold it. */
export const davisCheckSchema: z.ZodType<DavisCheck> = z.object({
  driver_id: z.string(),
  status: z.enum(['AwaitingCheck', 'DQ3', 'EmailUnconfirmed', 'Checked', 'NotFound']),
  checked_at: nullable(z.string()),
  licence: nullable(
    z.object({
      number: z.string(),
      type: nullable(z.string()),
      status: nullable(z.string()),
      issue_number: nullable(z.string()),
      valid_from: nullable(z.string()),
      valid_to: nullable(z.string()),
    }),
  ),
  address: nullable(z.string()),
  endorsements: z.array(
    z.object({
      code: z.string(),
      offence_date: nullable(z.string()),
      conviction_date: nullable(z.string()),
      points: nullable(z.number()),
    }),
  ),
  entitlements: z.array(
    z.object({
      category: z.string(),
      type: nullable(z.string()),
      valid_from: nullable(z.string()),
      valid_to: nullable(z.string()),
      restrictions: z.array(z.object({ code: z.string(), text: nullable(z.string()) })),
    }),
  ),
});

const STATE_OF: Record<DavisCheck['status'], CaseActivityState> = {
  AwaitingCheck: 'ca-in-progress',
  DQ3: 'ca-in-progress',
  EmailUnconfirmed: 'ca-awaiting-ops',
  Checked: 'ca-complete',
  NotFound: 'ca-pending-activity-decision',
};

/** Whether the engine keeps polling an activity whose check is in this status. */
export const isTracked = (status: DavisCheck['status']) =>
  status === 'AwaitingCheck' || status === 'DQ3';

/**
 * The result after `check` (on `today`), over what the activity showed before: a completed check
 * sets licence data, risk and dates; an open one keeps the last completed data and shows its
 * status. `changes` compares with the previous completed check (re-checks).
 */
export function mapCheck(
  check: DavisCheck,
  previous: LicenceCheckResultData,
  today: string,
  mandateDate: string | null,
): { state: CaseActivityState; resultData: LicenceCheckResultData } {
  const state = STATE_OF[check.status];
  if (check.status !== 'Checked' || !check.licence) {
    return {
      state,
      resultData: {
        ...previous,
        status: check.status,
        mandate_date: mandateDate ?? previous.mandate_date ?? null,
      },
    };
  }
  const endorsements = withRemovalDates(
    check.endorsements.map((e) => ({
      offence_code: e.code,
      offence_date: e.offence_date,
      conviction_date: e.conviction_date,
      penalty_points: e.points,
    })),
  );
  const points = currentPoints(endorsements, today);
  const checked = check.checked_at ?? today;
  const risk = licenceRisk({ licenceStatus: check.licence.status, endorsements, today });
  const licence = { ...check.licence, points };
  const next: LicenceCheckResultData = {
    ...previous,
    status: 'Checked',
    risk,
    last_check_date: checked,
    next_check_date: nextCheckDate(checked, risk),
    mandate_date: mandateDate ?? previous.mandate_date ?? null,
    licence,
    address: check.address,
    endorsements,
    entitlements: check.entitlements,
    // what changed since the last completed check (none before the first)
    changes: previous.last_check_date ? licenceChanges(previous, { licence, endorsements }) : [],
  };
  return { state, resultData: next };
}
