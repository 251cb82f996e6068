import { DBS_CHECK_CODES } from '@kestrel/domain';
import { Anchor, Button, Group, Skeleton, Stack } from '@mantine/core';
import { lazy, Suspense, useState } from 'react';
import { Link, useNavigate, useParams } from 'react-router';
import { opsOutstandingActivities } from '../../../api/activities';
import { Fact } from '../../../components/fact';
import { href } from '../../../config/paths';
import { notify } from '../../../lib/notify';
import { startOpsSession } from '../../../lib/session/session-actions';
import { ActivityResult } from '../../results/activity-result';
import { ActivityFacts, ActivityHeading, ActivityNotLoaded } from '../components/activity-parts';
import { canSendBack, SendBackButton } from '../components/send-back';

// Operations edit the case data of basic and e-bulk checks here (spec point 2, issue 15).
const CaseDataPanel = lazy(() => import('../../case-data/case-data-panel'));
const CASE_DATA_KINDS: readonly string[] = DBS_CHECK_CODES;

/**
 * One check waiting for operations. Its case is worked inside the customer's workspace: "Open the
 * case" starts an ops session for that customer and goes to the case.
 */
export default function OpsOutstandingDetail() {
  const { id = '' } = useParams();
  const navigate = useNavigate();
  const [opening, setOpening] = useState(false);
  const query = opsOutstandingActivities.useItem(id);
  const a = query.data;
  if (!a) {
    return (
      <ActivityNotLoaded
        failed={query.isError}
        gone="This activity is no longer waiting for operations."
        back={href('ops:outstanding-activities')}
      />
    );
  }
  const openCase = async () => {
    setOpening(true);
    const ok = await startOpsSession(a.customer);
    setOpening(false);
    if (ok) navigate(href('bootstrap', {}, { next: href('case-detail', { id: a.case.id }) }));
    else notify.error('Error starting customer session');
  };
  return (
    <Stack gap="lg" maw={880}>
      <Anchor component={Link} to={href('ops:outstanding-activities')} size="sm">
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
                onSent={() => navigate(href('ops:outstanding-activities'))}
              />
            )}
            <Button onClick={openCase} loading={opening}>
              Open the case as {a.customer_name}
            </Button>
          </Group>
        }
      />
      <ActivityFacts activity={a} before={<Fact label="Customer">{a.customer_name}</Fact>} />
      <ActivityResult
        activity={a}
        audience="ops"
        family="ops"
        caseActivityCodes={(a.case.case_activities ?? []).map((x) => x.activity_type)}
      />
      {CASE_DATA_KINDS.includes(a.activity_type) && (
        <Suspense fallback={<Skeleton h={240} radius="lg" />}>
          <CaseDataPanel caseId={a.case.id} audience="ops" />
        </Suspense>
      )}
    </Stack>
  );
}
