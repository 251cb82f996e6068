import { DBS_CHECK_CODES, formatDate } from '@kestrel/domain';
import { Anchor, Button, Group, Paper, Skeleton, Stack, Switch, Text } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { lazy, Suspense, useState } from 'react';
import { Link, useNavigate, useParams, useSearchParams } from 'react-router';
import { type Activity, opsOutstandingActivities } from '../../../api/activities';
import { Fact } from '../../../components/fact';
import { href } from '../../../config/paths';
import { notify } from '../../../lib/notify';
import { startOpsSession } from '../../../lib/session/session-actions';
import { useSession } from '../../../lib/session/session-store';
import { ActivityResult, OpsFormSavedContext } from '../../results';
import { ActivityFacts, ActivityHeading, ActivityNotLoaded } from '../components/activity-parts';
import {
  assignedTo,
  claimAction,
  nextUnclaimed,
  queueFiltersOf,
  queueUrl,
} from '../components/ops-queue';
import { canSendBack, SendBackButton } from '../components/send-back';

// Operations edit the case data of basic and e-bulk checks here (spec point 2, issue 15).
const CaseDataPanel = lazy(() => import('../../case-data'));
const CASE_DATA_KINDS: readonly string[] = DBS_CHECK_CODES;

/** Who holds the activity, with Claim and Release (issue 29's work queue). */
function ClaimBar({ activity }: { activity: Activity }) {
  const client = useQueryClient();
  const { bootstrap } = useSession();
  const me = bootstrap?.profile?.id;
  const [busy, setBusy] = useState(false);
  const act = async (action: 'claim' | 'release') => {
    setBusy(true);
    const r = await claimAction(activity.id, action);
    setBusy(false);
    if (r.ok) notify.success(action === 'claim' ? 'Activity claimed' : 'Activity released');
    else notify.error(r.data.detail ?? 'Error updating case activity');
    await client.invalidateQueries();
  };
  const claim = activity.claim;
  const mine = claim != null && claim.user_id === me;
  return (
    <Paper withBorder radius="lg" p="md" data-testid="claim-bar">
      <Group justify="space-between" gap="sm">
        <Text fw={600}>
          {assignedTo(activity)}
          {claim ? (
            <Text span c="dimmed" fw={400} size="sm">
              {' '}
              since {formatDate(claim.claimed_at)}
            </Text>
          ) : null}
        </Text>
        <Group gap="sm">
          {!mine && (
            <Button
              h={44}
              onClick={() => act('claim')}
              loading={busy}
              variant={claim ? 'default' : 'filled'}
            >
              Claim
            </Button>
          )}
          {claim && (
            <Button h={44} variant="default" onClick={() => act('release')} loading={busy}>
              Release
            </Button>
          )}
        </Group>
      </Group>
    </Paper>
  );
}

/**
 * One check waiting for operations. Its case is worked inside the customer's workspace: "Open the
 * case" starts an ops session for that customer and goes to the case.
 */
export default function OpsOutstandingDetail() {
  const { id = '' } = useParams();
  const navigate = useNavigate();
  const [search] = useSearchParams();
  const filters = queueFiltersOf(search);
  const back = queueUrl(filters);
  const [opening, setOpening] = useState(false);
  const [andNext, setAndNext] = useState(false);
  const query = opsOutstandingActivities.useItem(id);
  const a = query.data;
  if (!a) {
    return (
      <ActivityNotLoaded
        failed={query.isError}
        gone="This activity is no longer waiting for operations."
        back={back}
      />
    );
  }
  // "Save and next": once an ops form saved, the next unclaimed activity of the same list
  const saveAndNext = async () => {
    if (!andNext) return;
    const next = await nextUnclaimed(filters, a.id);
    if (next === null) {
      notify.success('No more unclaimed activities in this list');
      navigate(back);
    } else {
      navigate(queueUrl(filters, next));
    }
  };
  const openCase = async () => {
    setOpening(true);
    const ok = await startOpsSession(a.customer);
    setOpening(false);
    if (ok) navigate(href('bootstrap', {}, { next: href('case-detail', { id: a.case.id }) }));
    else notify.error('Error starting customer session');
  };
  return (
    <Stack gap="lg" maw={880}>
      <Anchor component={Link} to={back} size="sm">
        ← Outstanding activities
      </Anchor>
      <ActivityHeading
        activity={a}
        actions={
          <Group gap="sm">
            {canSendBack(a) && (
              <SendBackButton
                activity={a}
                path="/api/ops/case-activities/"
                onSent={() => navigate(back)}
              />
            )}
            <Button onClick={openCase} loading={opening}>
              Open the case as {a.customer_name}
            </Button>
          </Group>
        }
      />
      <ClaimBar activity={a} />
      <ActivityFacts activity={a} before={<Fact label="Customer">{a.customer_name}</Fact>} />
      <Switch
        checked={andNext}
        onChange={(e) => setAndNext(e.currentTarget.checked)}
        label="Save and next: after saving, open the next unclaimed activity of this list"
        data-testid="save-and-next"
      />
      <OpsFormSavedContext.Provider value={saveAndNext}>
        <ActivityResult
          activity={a}
          audience="ops"
          family="ops"
          caseActivityCodes={(a.case.case_activities ?? []).map((x) => x.activity_type)}
        />
      </OpsFormSavedContext.Provider>
      {CASE_DATA_KINDS.includes(a.activity_type) && (
        <Suspense fallback={<Skeleton h={240} radius="lg" />}>
          <CaseDataPanel caseId={a.case.id} audience="ops" />
        </Suspense>
      )}
    </Stack>
  );
}
