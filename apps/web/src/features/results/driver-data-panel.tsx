import { DRIVER_DATA_CODES, driverDataMessage, readResultData } from '@kestrel/domain';
import { Alert } from '@mantine/core';
import { EndorsementsTable, EntitlementsTable } from './driving-record-tables';
import {
  day,
  Facts,
  isCancelled,
  Note,
  PANEL_TEXTS,
  PanelFrame,
  PanelSection,
  SmallTable,
} from './panel-kit';
import type { ResultPanelProps } from './registry';

/** Our own wording: no enquiry answered yet. */
export const DRIVER_DATA_PENDING = 'Driver data not yet available';

/**
 * Driver data (spec point 2): driver, licence, token, endorsements with their removal date,
 * entitlements, tests; CPCs and DQCs when the check included them, tacho cards when it included
 * them; the messages for no driver record (ENQ018) and a suppressed one (ENQ037, up to 28 days,
 * with the mandate date). The subject sees the same record (their own).
 */
export function DriverDataPanel({ activity }: ResultPanelProps) {
  const data = readResultData('driver-data', activity.result_data);
  const code = data.enquiry_code ?? null;
  const message = driverDataMessage(
    code,
    code === DRIVER_DATA_CODES.suppressed ? day(data.mandate_date) : null,
  );
  if (message) {
    return (
      <PanelFrame testId="driver-data-panel">
        <Alert
          color={code === DRIVER_DATA_CODES.noRecord ? 'orange' : 'blue'}
          variant="light"
          data-testid="driver-data-message"
        >
          {message}
        </Alert>
        <Facts
          items={[
            ['Enquiry code', code ?? ''],
            ['Mandate date', day(data.mandate_date)],
            ['Checked', day(data.checked_date)],
            ...(data.suppressed_since
              ? ([['Suppressed since', day(data.suppressed_since)]] as const)
              : []),
          ]}
        />
      </PanelFrame>
    );
  }
  if (!data.driver && !data.licence) {
    return (
      <PanelFrame testId="driver-data-panel">
        <Note testId="driver-data-pending">
          {isCancelled(activity) ? PANEL_TEXTS.cancelled : DRIVER_DATA_PENDING}
        </Note>
      </PanelFrame>
    );
  }
  const d = data.driver;
  return (
    <PanelFrame testId="driver-data-panel">
      <PanelSection title="Driver" testId="driver-data-driver">
        <Facts
          items={[
            ['First names', d?.first_names],
            ['Last name', d?.last_name],
            ['Gender', d?.gender],
            ['Date of birth', day(d?.date_of_birth)],
            ['Address', d?.address],
          ]}
          wide={['Address']}
        />
      </PanelSection>
      <PanelSection title="Licence" testId="driver-data-licence">
        <Facts
          items={[
            ['Type', data.licence?.type],
            ['Status', data.licence?.status],
            ['Qualifier', data.licence?.status_qualifier],
            ['Mandate date', day(data.mandate_date)],
            ['Checked', day(data.checked_date)],
          ]}
        />
      </PanelSection>
      <PanelSection title="Token" testId="driver-data-token">
        <Facts
          items={[
            ['Valid from', day(data.token?.valid_from)],
            ['Valid to', day(data.token?.valid_to)],
            ['Issue number', data.token?.issue_number],
          ]}
        />
      </PanelSection>
      <EndorsementsTable endorsements={data.endorsements} testId="driver-data-endorsements" />
      <EntitlementsTable entitlements={data.entitlements} testId="driver-data-entitlements" />
      <PanelSection title="Tests" testId="driver-data-tests">
        {(data.tests ?? []).length === 0 ? (
          <Note>No test passes</Note>
        ) : (
          <SmallTable
            caption="Tests"
            head={['Category', 'Test date', 'Status']}
            rows={(data.tests ?? []).map((x) => [x.category, day(x.test_date), x.status ?? ''])}
          />
        )}
      </PanelSection>
      {data.include_cpc && (
        <>
          <PanelSection title="CPCs" testId="driver-data-cpcs">
            {(data.cpcs ?? []).length === 0 ? (
              <Note>No CPCs</Note>
            ) : (
              <SmallTable
                caption="CPCs"
                head={['LGV valid to', 'PCV valid to']}
                rows={(data.cpcs ?? []).map((c) => [day(c.lgv_valid_to), day(c.pcv_valid_to)])}
              />
            )}
          </PanelSection>
          <PanelSection title="DQCs" testId="driver-data-dqcs">
            {(data.dqcs ?? []).length === 0 ? (
              <Note>No DQCs</Note>
            ) : (
              <SmallTable
                caption="DQCs"
                head={['Card number', 'Issue date', 'Valid to']}
                rows={(data.dqcs ?? []).map((q) => [
                  q.card_number ?? '',
                  day(q.issue_date),
                  day(q.valid_to),
                ])}
              />
            )}
          </PanelSection>
        </>
      )}
      {data.include_tacho && (
        <PanelSection title="Tacho cards" testId="driver-data-tacho">
          {(data.tacho_cards ?? []).length === 0 ? (
            <Note>No tacho cards</Note>
          ) : (
            <SmallTable
              caption="Tacho cards"
              head={['Card number', 'Status', 'Valid from', 'Valid to']}
              rows={(data.tacho_cards ?? []).map((c) => [
                c.card_number ?? '',
                c.status ?? '',
                day(c.valid_from),
                day(c.valid_to),
              ])}
            />
          )}
        </PanelSection>
      )}
    </PanelFrame>
  );
}
