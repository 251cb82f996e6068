import {
  ADULT_FIRST_NOTE,
  ADULT_FIRST_RESULTS,
  ADULT_FIRST_STAGE_LABELS,
  isActivityOpen,
  readResultData,
} from '@kestrel/domain';
import { Anchor } from '@mantine/core';
import { Link } from 'react-router';
import { href } from '../../config/paths';
import { type Audience, day, Facts, Note, type PanelActivity, PanelFrame } from './panel-kit';

export const adultFirstResultLabel = (value: string | null | undefined) =>
  ADULT_FIRST_RESULTS.find((r) => r.value === value)?.label ?? '';

/**
 * Adult first (spec point 2): the stage, the linked DBS case (a link for staff), the result, and
 * the note that a result can take up to 72 hours, while one is awaited: not once the result is
 * received, nor for a cancelled request.
 */
export function AdultFirstPanel({
  activity,
  audience,
}: {
  activity: PanelActivity;
  audience: Audience;
}) {
  const data = readResultData('adult-first', activity.result_data);
  const stage = data.stage ?? 'pending';
  const dbsCase = data.dbs_case;
  return (
    <PanelFrame testId="adult-first-panel">
      <Facts
        items={[
          ['Stage', ADULT_FIRST_STAGE_LABELS[stage]],
          [
            'Linked DBS case',
            dbsCase ? (
              audience === 'subject' ? (
                `Case #${dbsCase}`
              ) : (
                <Anchor key="case" component={Link} to={href('case-detail', { id: dbsCase })}>
                  Case #{dbsCase}
                </Anchor>
              )
            ) : (
              ''
            ),
          ],
          ...(audience === 'subject' ? [] : ([['Reference', data.reference]] as const)),
          ['Requested', day(data.requested_date)],
          ['Result', adultFirstResultLabel(data.result)],
          ['Result received', day(data.result_date)],
        ]}
      />
      {stage !== 'result-received' && isActivityOpen(activity.state) && (
        <Note testId="adult-first-note">{ADULT_FIRST_NOTE}</Note>
      )}
    </PanelFrame>
  );
}
