import {
  countryName,
  nameMismatchLabel,
  ONLINE_IDV_PANEL_TEXTS,
  ONLINE_IDV_TEXTS,
  readResultData,
} from '@kestrel/domain';
import { Alert, Badge, Group } from '@mantine/core';
import {
  day,
  Facts,
  isCancelled,
  Note,
  PANEL_TEXTS,
  PanelFrame,
  PanelSection,
  yesNo,
} from './panel-kit';
import type { ResultPanelProps } from './registry';

const LEVELS: Record<string, string> = { medium: 'Medium', high: 'High' };

/**
 * Online identity verification (spec point 2): names, date of birth, current address, level of
 * assurance; right to work verified or not, DBS identity verified or manual, the name mismatch
 * reason; the texts about manual and in-branch Post Office verification and about right to work
 * not being digitally verified. The subject's view leaves out the provider's sessions, the
 * failure's words and who approved by hand.
 */
export function OnlineIdvPanel({ activity, audience }: ResultPanelProps) {
  const data = readResultData('online-idv', activity.result_data);
  const staff = audience !== 'subject';
  const address = data.current_address;
  const finished = data.outcome != null;
  const manual = data.manual_idv_approved === true;
  if (!finished && !manual) {
    return (
      <PanelFrame testId="online-idv-panel">
        <Note testId="online-idv-not-finished">
          {isCancelled(activity) ? PANEL_TEXTS.cancelled : ONLINE_IDV_PANEL_TEXTS.notFinished}
        </Note>
      </PanelFrame>
    );
  }
  const name = [data.forename, data.middlename, data.surname].filter(Boolean).join(' ');
  return (
    <PanelFrame testId="online-idv-panel">
      <Group gap="xs">
        <Badge color={data.verified ? 'green' : manual ? 'blue' : 'orange'} variant="light">
          {data.verified ? 'Verified' : manual ? 'Verified manually' : 'Not verified'}
        </Badge>
        {data.outcome === 'failed' && (
          <Badge color="red" variant="light">
            Failed
          </Badge>
        )}
      </Group>
      {manual && <Note testId="online-idv-manual">{ONLINE_IDV_TEXTS.manual}</Note>}
      {data.method === 'post-office' && (
        <Note testId="online-idv-post-office">{ONLINE_IDV_TEXTS.postOffice}</Note>
      )}
      {data.outcome === 'failed' && !manual && (
        <Note testId="online-idv-failed">
          {ONLINE_IDV_PANEL_TEXTS.failed}
          {staff && data.failure_reason ? ` ${data.failure_reason}` : ''}
        </Note>
      )}
      <PanelSection title="Verified identity">
        <Facts
          items={[
            ['Name', name],
            ['Date of birth', day(data.dob)],
            [
              'Current address',
              address
                ? [address.line_one, address.line_two, address.town, address.postcode]
                    .filter(Boolean)
                    .join(', ') + (address.country ? `, ${countryName(address.country)}` : '')
                : '',
            ],
            [
              'Level of assurance',
              LEVELS[data.level_of_assurance ?? ''] ?? data.level_of_assurance ?? '',
            ],
          ]}
          wide={['Current address']}
        />
      </PanelSection>
      <PanelSection title="Checks">
        <Facts
          items={[
            ['Right to work', data.rtw_verified ? 'Verified' : 'Not verified'],
            [
              'DBS identity',
              data.dbs_identity === 'verified'
                ? ONLINE_IDV_PANEL_TEXTS.dbsVerified
                : data.dbs_identity === 'manual'
                  ? ONLINE_IDV_PANEL_TEXTS.dbsManual
                  : '',
            ],
            ['Bank verified', yesNo(data.ibv_verified)],
            [
              'Name mismatch reason',
              data.name_mismatch ? nameMismatchLabel(data.name_mismatch.reason) : '',
            ],
            ...(staff
              ? ([
                  ['Name on documents', data.name_mismatch?.document_name ?? ''],
                  ['Completed', day(data.completed_at)],
                ] as const)
              : []),
          ]}
        />
      </PanelSection>
      {finished && data.rtw_verified !== true && (
        <Alert color="yellow" variant="light" data-testid="online-idv-rtw-not-digital">
          {ONLINE_IDV_TEXTS.rtwNotDigital}
        </Alert>
      )}
      {staff && data.manual_approval && (
        <PanelSection title="Manual approval">
          <Facts
            items={[
              ['Approved by', data.manual_approval.by],
              ['Approved on', day(data.manual_approval.at)],
              ['Reason', data.manual_approval.reason],
            ]}
            wide={['Reason']}
          />
        </PanelSection>
      )}
      {staff && (
        <Facts
          items={[
            ['Session', data.session ?? ''],
            ['Bank verification session', data.ibv_session ?? ''],
          ]}
        />
      )}
    </PanelFrame>
  );
}
