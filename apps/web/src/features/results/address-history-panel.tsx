import { type CaseAddressOut, countryName, formatDate } from '@kestrel/domain';
import { List } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { caseAddresses } from '../../api/case-addresses';
import { familyOf } from './data-panel-kit';
import {
  type Audience,
  caseIdOf,
  Note,
  type PanelActivity,
  PanelFrame,
  PanelSection,
  SmallTable,
} from './panel-kit';

/** The words of an address in the history table: line one, line two, town and postcode joined. */
export function addressText(
  a: Pick<CaseAddressOut, 'line_one' | 'line_two' | 'town' | 'postcode'>,
) {
  return [a.line_one, a.line_two, a.town, a.postcode]
    .map((p) => p.trim())
    .filter(Boolean)
    .join(', ');
}

/** 'Current' for the current address, else its end date. */
export const addressTo = (a: Pick<CaseAddressOut, 'current' | 'to_date'>) =>
  a.current ? 'Current' : formatDate(a.to_date);

export const ADDRESS_HISTORY_TEXTS = {
  none: 'No address history has been given yet.',
  failed: 'The address history could not be loaded.',
  gaps: 'Missing address information',
} as const;

/**
 * Address history (spec point 2): a read-only table of the case's addresses, newest first:
 * address (line one, line two, town, postcode joined), country, from date and to date ('Current'
 * for the current one). Staff and operations also see the gaps of the last 60 months.
 */
export function AddressHistoryPanel({
  activity,
  audience,
}: {
  activity: PanelActivity;
  audience: Audience;
}) {
  const caseId = caseIdOf(activity);
  const api = familyOf(audience);
  const q = useQuery({ ...caseAddresses.options(caseId ?? 0, api), enabled: caseId !== null });
  if (q.isPending && caseId !== null) return null;
  if (q.isError || caseId === null)
    return (
      <PanelFrame testId="address-history-panel">
        <Note>{ADDRESS_HISTORY_TEXTS.failed}</Note>
      </PanelFrame>
    );
  const rows = q.data?.results ?? [];
  const gaps = audience === 'subject' ? [] : (q.data?.gaps ?? []);
  return (
    <PanelFrame testId="address-history-panel">
      {rows.length === 0 ? (
        <Note>{ADDRESS_HISTORY_TEXTS.none}</Note>
      ) : (
        <SmallTable
          caption="Address history"
          head={['Address', 'Country', 'From', 'To']}
          rows={rows.map((a) => [
            addressText(a),
            countryName(a.country),
            formatDate(a.from_date),
            addressTo(a),
          ])}
        />
      )}
      {gaps.length > 0 && (
        <PanelSection title={ADDRESS_HISTORY_TEXTS.gaps} testId="address-gaps">
          <List size="sm">
            {gaps.map((g) => (
              <List.Item key={g.from_date}>
                {formatDate(g.from_date)} to {formatDate(g.to_date)}
              </List.Item>
            ))}
          </List>
        </PanelSection>
      )}
    </PanelFrame>
  );
}
