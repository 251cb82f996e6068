import {
  LICENCE_CHECK_STATUS_LABELS,
  LICENCE_RISK_LABELS,
  licenceCheckMessage,
  readResultData,
} from '@kestrel/domain';
import { Alert, List } from '@mantine/core';
import { EndorsementsTable, EntitlementsTable } from './driving-record-tables';
import { day, Facts, PANEL_TEXTS, PanelFrame, PanelSection } from './panel-kit';
import type { ResultPanelProps } from './registry';

/** Our own wording for the statuses the spec leaves unworded. */
export const LICENCE_CHECK_TEXTS = {
  emailUnconfirmed:
    'The licence check service is waiting for the driver’s email to be confirmed by operations.',
  notFound: 'No driving licence was found with the number given.',
} as const;

/** Activity states before the subject has given their licence details. */
const BEFORE_SUBMISSION: readonly string[] = ['ca-pending', 'ca-awaiting-subject'];

/**
 * The message a licence check shows: awaiting the check, DQ3's manual DVLA response (14-28
 * working days), or waiting for the subject's licence details (spec point 2); none once checked.
 * A cancelled check waits for nothing: it says it was cancelled, whatever the service last said.
 */
export function licenceCheckNote(status: string | null | undefined, state: string): string | null {
  if (state === 'ca-cancelled') return PANEL_TEXTS.cancelled;
  if (status === 'EmailUnconfirmed') return LICENCE_CHECK_TEXTS.emailUnconfirmed;
  if (status === 'NotFound') return LICENCE_CHECK_TEXTS.notFound;
  if (status) return licenceCheckMessage(status);
  // no answer yet: the subject's details first, then the service's check
  if (BEFORE_SUBMISSION.includes(state)) return licenceCheckMessage(null);
  return licenceCheckMessage('AwaitingCheck');
}

/**
 * The driving licence check (spec point 2): status, risk, last and next check dates, licence
 * data, address, endorsements and entitlements; its messages. The subject's view leaves out the
 * risk, what a re-check found changed and the email operations confirmed.
 */
export function LicenceCheckPanel({ activity, audience }: ResultPanelProps) {
  const data = readResultData('licence-check', activity.result_data);
  const staff = audience !== 'subject';
  const note = licenceCheckNote(data.status, activity.state);
  const status = data.status ? LICENCE_CHECK_STATUS_LABELS[data.status] : '';
  const changes = data.changes ?? [];
  return (
    <PanelFrame testId="licence-check-panel">
      {note && (
        <Alert color="blue" variant="light" data-testid="licence-check-message">
          {note}
        </Alert>
      )}
      <Facts
        items={[
          ['Status', status],
          ...(staff ? ([['Risk', data.risk ? LICENCE_RISK_LABELS[data.risk] : '']] as const) : []),
          ['Last check', day(data.last_check_date)],
          // a cancelled check is not re-checked
          ['Next check', activity.state === 'ca-cancelled' ? '' : day(data.next_check_date)],
          ...(staff && data.confirmed_email
            ? ([
                ['Confirmed email', `${data.confirmed_email} (${day(data.confirmed_at)})`],
              ] as const)
            : []),
        ]}
      />
      {staff && changes.length > 0 && (
        <Alert
          color="orange"
          variant="light"
          title="The last re-check found changes"
          data-testid="licence-check-changes"
        >
          <List size="sm">
            {changes.map((c) => (
              <List.Item key={c}>{c}</List.Item>
            ))}
          </List>
        </Alert>
      )}
      {data.licence && (
        <PanelSection title="Licence" testId="licence-check-licence">
          <Facts
            items={[
              ['Licence number', data.licence.number],
              ['Type', data.licence.type],
              ['Status', data.licence.status],
              ['Issue number', data.licence.issue_number],
              ['Valid from', day(data.licence.valid_from)],
              ['Valid to', day(data.licence.valid_to)],
              ['Penalty points', data.licence.points == null ? '' : String(data.licence.points)],
              ['Mandate date', day(data.mandate_date)],
            ]}
          />
        </PanelSection>
      )}
      {data.status === 'Checked' && (
        <>
          <PanelSection title="Address" testId="licence-check-address">
            <Facts items={[['Address', data.address]]} wide={['Address']} />
          </PanelSection>
          <EndorsementsTable endorsements={data.endorsements} testId="licence-check-endorsements" />
          <EntitlementsTable entitlements={data.entitlements} testId="licence-check-entitlements" />
        </>
      )}
    </PanelFrame>
  );
}
