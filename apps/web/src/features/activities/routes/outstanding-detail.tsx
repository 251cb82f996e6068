import {
  CASE_ACTIVITY_STATE_LABELS,
  canTransitionActivity,
  isCaseActivityState,
  isEngineRunKind,
  isHandMoveAllowed,
} from '@kestrel/domain';
import { Anchor, Button, Group, Stack } from '@mantine/core';
import { Link, useNavigate, useParams } from 'react-router';
import { caseActivities, outstandingActivities } from '../../../api/activities';
import { href } from '../../../config/paths';
import { useRights } from '../../../lib/rights';
import { ActivityResult } from '../../results';
import { ActivityFacts, ActivityHeading, ActivityNotLoaded } from '../components/activity-parts';
import { canSendBack, SendBackButton } from '../components/send-back';

const MOVES = ['ca-in-progress', 'ca-complete', 'ca-cancelled'] as const;
const MOVE_LABELS: Record<(typeof MOVES)[number], string> = {
  'ca-in-progress': 'Mark in progress',
  'ca-complete': 'Mark complete',
  'ca-cancelled': 'Cancel check',
};

/**
 * One activity waiting for the customer, with the moves the domain allows from its state (a check
 * the engine runs moves with its provider: it is only cancelled, or decided once it waits for a
 * decision; sent back to its subject where the domain allows), and its result panel (with
 * verification and countersigning for a DBS check).
 */
export default function OutstandingDetail() {
  const { id = '' } = useParams();
  const { can } = useRights();
  const navigate = useNavigate();
  const query = outstandingActivities.useItem(id);
  const save = caseActivities.useSave({ partial: true });
  const a = query.data;
  if (!a) {
    return (
      <ActivityNotLoaded
        failed={query.isError}
        gone="This activity is no longer outstanding."
        back={href('outstanding-activities')}
      />
    );
  }
  const from = a.state;
  const engine = isEngineRunKind(a.activity_type);
  const moves = isCaseActivityState(from)
    ? MOVES.filter(
        (to) => canTransitionActivity(from, to) && (!engine || isHandMoveAllowed(from, to)),
      )
    : [];
  const move = async (state: string) => {
    const saved = await save.mutateAsync({ id: a.id, values: { state } }).catch(() => null);
    // A moved activity usually leaves the outstanding list: back to it.
    if (saved) navigate(href('outstanding-activities'));
  };
  return (
    <Stack gap="lg" maw={880}>
      <Anchor component={Link} to={href('outstanding-activities')} size="sm">
        ← Outstanding activities
      </Anchor>
      <ActivityHeading
        activity={a}
        actions={
          can('cases.change_caseactivity') && (
            <Group gap="sm">
              {moves.map((to) => (
                <Button
                  key={to}
                  variant={to === 'ca-complete' ? 'filled' : 'default'}
                  color={to === 'ca-cancelled' ? 'red' : undefined}
                  loading={save.isPending}
                  onClick={() => move(to)}
                  title={CASE_ACTIVITY_STATE_LABELS[to]}
                >
                  {MOVE_LABELS[to]}
                </Button>
              ))}
              {canSendBack(a) && (
                <SendBackButton
                  activity={a}
                  onSent={() => navigate(href('outstanding-activities'))}
                />
              )}
            </Group>
          )
        }
      />
      <ActivityFacts
        activity={a}
        caseLink={
          <Anchor component={Link} to={href('case-detail', { id: a.case.id })}>
            #{a.case.id}
          </Anchor>
        }
      />
      <ActivityResult
        activity={a}
        audience="customer"
        family="customer"
        caseActivityCodes={(a.case.case_activities ?? []).map((x) => x.activity_type)}
      />
    </Stack>
  );
}
