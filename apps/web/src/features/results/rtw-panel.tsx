import {
  formatDate,
  nationalityName,
  RTW_METHOD_LABELS,
  RTW_OUTCOME_LABELS,
  RTW_PANEL_TEXTS,
  readResultData,
} from '@kestrel/domain';
import { Alert, Group, Image, List, Stack } from '@mantine/core';
import { day, Facts, isCancelled, Note, PANEL_TEXTS, PanelFrame, PanelSection } from './panel-kit';
import type { ResultPanelProps } from './registry';

/**
 * Right to work (spec point 2): names, nationality, verification method, checked by, checked
 * at, result, documents; a time-limited right's conditions, end and follow-up date. The subject's
 * view leaves out the Home Office photo, the share code and staff notes.
 */
export function RtwPanel({ activity, audience }: ResultPanelProps) {
  const data = readResultData('rtw', activity.result_data);
  const staff = audience !== 'subject';
  if (!data.outcome) {
    return (
      <PanelFrame testId="rtw-panel">
        <Note testId="rtw-not-checked">
          {isCancelled(activity)
            ? PANEL_TEXTS.cancelled
            : activity.state === 'ca-awaiting-agent'
              ? RTW_PANEL_TEXTS.awaitingManual
              : RTW_PANEL_TEXTS.notChecked}
        </Note>
      </PanelFrame>
    );
  }
  // a nationality, as one ('GBR' → 'British'); the Home Office's words ('Indian') as they are
  const nationality = data.nationality ? nationalityName(data.nationality) : '';
  return (
    <PanelFrame testId="rtw-panel">
      {data.follow_up_date && (
        <Alert color="yellow" variant="light" data-testid="rtw-follow-up">
          {RTW_PANEL_TEXTS.followUp(formatDate(data.follow_up_date))}
        </Alert>
      )}
      <Group align="flex-start" gap="md" wrap="nowrap">
        {staff && data.photo && (
          <Image
            src={data.photo}
            alt="Photo held by the Home Office"
            w={72}
            h={90}
            radius="sm"
            fit="cover"
          />
        )}
        <Stack gap="sm" style={{ flex: 1, minWidth: 0 }}>
          <Facts
            items={[
              ['Forename', data.forename ?? ''],
              ['Surname', data.surname ?? ''],
              ['Nationality', nationality],
              ['Verification method', data.method ? RTW_METHOD_LABELS[data.method] : ''],
              ['Checked by', data.checked_by ?? ''],
              ['Checked at', day(data.checked_at)],
              ['Result', RTW_OUTCOME_LABELS[data.outcome]],
              ['Right to work ends', day(data.expiry_date)],
              ...(staff ? ([['Share code', data.share_code ?? '']] as const) : []),
            ]}
          />
        </Stack>
      </Group>
      {data.status_text && <Note testId="rtw-status-text">{data.status_text}</Note>}
      {(data.conditions?.length ?? 0) > 0 && (
        <PanelSection title="Conditions">
          <List size="sm">
            {data.conditions?.map((c) => (
              <List.Item key={c}>{c}</List.Item>
            ))}
          </List>
        </PanelSection>
      )}
      <PanelSection title="Documents">
        {(data.documents?.length ?? 0) > 0 ? (
          <List size="sm" data-testid="rtw-documents">
            {data.documents?.map((d) => (
              <List.Item key={d}>{d}</List.Item>
            ))}
          </List>
        ) : (
          <Note>No documents were checked by hand.</Note>
        )}
      </PanelSection>
      {staff && data.notes && <Note testId="rtw-notes">{data.notes}</Note>}
    </PanelFrame>
  );
}
