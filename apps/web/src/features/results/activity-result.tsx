import {
  DBS_CHECK_CODES,
  guidanceLink,
  isActivityOpen,
  isAdultFirstOffered,
  isCountersignedKind,
  type PortalActivityOut,
  type SubjectActivityResultOut,
} from '@kestrel/domain';
import { Anchor, Button, Group, Skeleton, Stack } from '@mantine/core';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { request } from '../../api/client';
import { notify } from '../../lib/notify';
import { useRights } from '../../lib/rights';
import { useSession } from '../../lib/session/session-store';
import { RedactionNotice } from '../retention';
import { ActivityConfigAccordion } from './activity-config-accordion';
import { NotesAccordion } from './notes-accordion';
import { type Audience, caseIdOf, type PanelActivity } from './panel-kit';
import { opsFormFor, resultPanelFor } from './registry';
import { type ApiFamily, type DbsDetails, getDbsDetails, requestAdultFirst } from './results-api';
import { DecisionReason, RetryActivity } from './retry-activity';
import { VerificationActions } from './verification-actions';

/** The guidance link: basic check guidance for dbs-basic, identity checking guidelines otherwise. */
export function GuidanceLink({ code }: { code: string }) {
  const link = guidanceLink(code);
  return (
    <Anchor
      href={link.url}
      target="_blank"
      rel="noreferrer"
      size="sm"
      data-testid="guidance-link"
      style={{ display: 'inline-block', lineHeight: '44px', minHeight: 44 }}
    >
      {link.label}
    </Anchor>
  );
}

function useDbsDetails(family: ApiFamily, caseId: number | null, enabled: boolean) {
  return useQuery({
    queryKey: ['/api/case-dbs-details/', family, caseId],
    enabled: enabled && caseId !== null,
    queryFn: async (): Promise<DbsDetails | null> => {
      if (caseId === null) return null;
      const r = await getDbsDetails(family, caseId);
      // No DBS details yet (404) or not readable: the panel shows its fallbacks.
      return r.ok ? r.data : null;
    },
  });
}

function RequestAdultFirst({
  activityId,
  family,
}: {
  activityId: number;
  family: 'customer' | 'ops';
}) {
  const client = useQueryClient();
  const [busy, setBusy] = useState(false);
  const run = async () => {
    setBusy(true);
    const r = await requestAdultFirst(family, activityId);
    setBusy(false);
    if (r.ok) {
      notify.success('Successfully added adult first check');
      await client.invalidateQueries();
    } else {
      notify.error('Error adding adult first check');
    }
  };
  return (
    <Button h={44} variant="light" onClick={run} loading={busy} data-testid="request-adult-first">
      Request adult first
    </Button>
  );
}

export interface ActivityResultProps {
  activity: PanelActivity;
  audience: Audience;
  /** Which API family to read and write the case's DBS details through. */
  family?: ApiFamily;
  /** Activity type codes of the case's activities (for the adult-first offer). */
  caseActivityCodes?: readonly string[];
}

/**
 * An activity's result on a case page: its kind's panel (registry), the guidance link and the
 * verification buttons for staff, the adult-first request when offered, the configuration
 * accordion, and for operations the retry of a failed start, the kind's form (registry) and the
 * notes accordion.
 */
export function ActivityResult({
  activity,
  audience,
  family = audience === 'subject' ? 'subject' : 'customer',
  caseActivityCodes = [],
}: ActivityResultProps) {
  const session = useSession();
  const rights = useRights();
  const code = activity.activity_type;
  const isDbs = (DBS_CHECK_CODES as readonly string[]).includes(code);
  const caseId = caseIdOf(activity);
  const details = useDbsDetails(family, caseId, isDbs);
  const Panel = resultPanelFor(code, audience);
  const OpsForm = audience === 'ops' ? opsFormFor(code) : null;
  if (!Panel) return null;
  const staff = audience !== 'subject';
  const staffFamily = family === 'ops' ? 'ops' : 'customer';
  const customerCodes = (session.bootstrap?.activityTypes ?? []).map((t) => t.code);
  const offered =
    staff &&
    isAdultFirstOffered({
      activityCode: code,
      customerActivityCodes: customerCodes,
      caseActivityCodes,
      permissions: [...(rights.can('cases.add_case') ? ['cases.add_case'] : [])],
      config: activity.config as { adult_barred_list?: boolean | null; workforce?: string | null },
    });
  const canVerify = rights.can('cases.change_caseactivity');
  const canCountersign = rights.can('cases.countersign_casedbsdetails');
  // standard and enhanced applications are verified and countersigned (not basic ones), while open
  const countersigned = isCountersignedKind(code) && isActivityOpen(activity.state);
  return (
    <Stack gap="sm" data-testid="activity-result" data-audience={audience}>
      {audience === 'ops' && <RetryActivity activity={activity} />}
      {staff && <DecisionReason activity={activity} />}
      {audience === 'customer' && (
        <RedactionNotice caseId={caseId} target="activity" targetId={activity.id} />
      )}
      <Panel activity={activity} audience={audience} dbsDetails={details.data ?? null} />
      {staff && isDbs && (
        <Group justify="space-between" gap="sm">
          <GuidanceLink code={code} />
          {caseId !== null && details.data && countersigned && (canVerify || canCountersign) && (
            <VerificationActions
              caseId={caseId}
              details={details.data}
              family={staffFamily}
              canVerify={canVerify}
              canCountersign={canCountersign}
            />
          )}
        </Group>
      )}
      {offered && <RequestAdultFirst activityId={activity.id} family={staffFamily} />}
      {isDbs && activity.config && Object.keys(activity.config).length > 0 && (
        <ActivityConfigAccordion config={activity.config} />
      )}
      {OpsForm && <OpsForm activity={activity} />}
      {audience === 'ops' && (
        <NotesAccordion activityId={activity.id} notes={activity.notes ?? ''} />
      )}
    </Stack>
  );
}

/** What the subject's case page gives the subject's result view (features/subject/result-slot). */
export interface SubjectActivityResultProps {
  caseId: number;
  activity: Pick<PortalActivityOut, 'id' | 'state'> & { activity_type: { code: string } };
}

/**
 * The subject's restricted result view of one activity: reads GET /api/s/case-activities/{id}/result/
 * (no processing data, notes or other people's names) and shows the kind's subject view from the
 * registry (nothing for a kind without one). The subject's case page loads it lazily.
 */
export function SubjectActivityResult({ caseId, activity }: SubjectActivityResultProps) {
  const code = activity.activity_type.code;
  const shown = resultPanelFor(code, 'subject') !== null;
  const result = useQuery({
    queryKey: ['/api/s/case-activities/', 'result', activity.id],
    enabled: shown,
    queryFn: async () => {
      const r = await request<SubjectActivityResultOut>(
        'GET',
        `/api/s/case-activities/${activity.id}/result/`,
      );
      if (!r.ok) throw new Error('Error retrieving case activity');
      return r.data;
    },
  });
  if (!shown || result.isError) return null;
  if (!result.data) return <Skeleton h={80} />;
  return (
    <ActivityResult
      audience="subject"
      family="subject"
      activity={{
        id: activity.id,
        state: result.data.state,
        activity_type: code,
        result_data: result.data.result_data,
        case: caseId,
      }}
    />
  );
}
