import {
  type EndorsementRecord,
  type EntitlementRecord,
  endorsementRow,
  NO_VALUE,
} from '@kestrel/domain';
import { day, Note, PanelSection, SmallTable } from './panel-kit';

/*
 * The endorsements and entitlements tables the driver data and licence check panels share
 * (spec point 2): each endorsement with the table's description and period ('Unrecognised code'
 * with dashes for a code the table does not know, point 8) and its removal date computed by the
 * endorsement rules (point 9).
 */

const points = (v: number | null | undefined) =>
  v === null || v === undefined ? NO_VALUE : String(v);

export function EndorsementsTable({
  endorsements,
  testId,
}: {
  endorsements: readonly EndorsementRecord[] | null | undefined;
  testId: string;
}) {
  const list = endorsements ?? [];
  return (
    <PanelSection title="Endorsements" testId={testId}>
      {list.length === 0 ? (
        <Note>No endorsements</Note>
      ) : (
        <SmallTable
          caption="Endorsements"
          head={[
            'Code',
            'Offence',
            'Offence date',
            'Conviction date',
            'Penalty points',
            'Period',
            'Removal date',
          ]}
          rows={list.map((e) => {
            const row = endorsementRow(e);
            return [
              row.code,
              row.description,
              day(e.offence_date),
              day(e.conviction_date),
              points(e.penalty_points),
              row.period,
              day(e.removal_date),
            ];
          })}
        />
      )}
    </PanelSection>
  );
}

export function EntitlementsTable({
  entitlements,
  testId,
}: {
  entitlements: readonly EntitlementRecord[] | null | undefined;
  testId: string;
}) {
  const list = entitlements ?? [];
  return (
    <PanelSection title="Entitlements" testId={testId}>
      {list.length === 0 ? (
        <Note>No entitlements</Note>
      ) : (
        <SmallTable
          caption="Entitlements"
          head={['Category', 'Type', 'Valid from', 'Valid to', 'Restrictions']}
          rows={list.map((e) => [
            e.category,
            e.type ?? '',
            day(e.valid_from),
            day(e.valid_to),
            (e.restrictions ?? []).map((r) => (r.text ? `${r.code} ${r.text}` : r.code)).join(', '),
          ])}
        />
      )}
    </PanelSection>
  );
}
