import { formatDate } from '@kestrel/domain';
import { Alert, Anchor, Button, Group, Paper, Skeleton, Stack, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { lazy, Suspense, useState } from 'react';
import { Link } from 'react-router';
import { href } from '../../../config/paths';
import { lmsSubject, type SubjectApplicationOut } from '../api';
import { ApplicationStateBadge, nextStepOf, renewStepOf } from './application-state';
import { SummaryList } from './choices';

/** The reply box, loaded when a council asks for more (see reply-box.tsx). */
export const ReplyBox = lazy(() => import('./reply-box'));

/** Asked for more first, then the other open ones, then the decided; newest first in each. */
const RANK: Record<SubjectApplicationOut['state'], number> = {
  more_info_requested: 0,
  awaiting_payment: 1,
  in_progress: 1,
  granted: 2,
  refused: 2,
  withdrawn: 3,
  expired: 3,
};

function ApplicationCard({ app }: { app: SubjectApplicationOut }) {
  const [sent, setSent] = useState(false);
  const next = nextStepOf(app.next_url, app.fee_display);
  const renew = renewStepOf(app.renew_url);
  return (
    <Paper withBorder radius="lg" p="md" component="li" data-testid="licence-application">
      <Stack gap="sm">
        <Group justify="space-between" align="flex-start" gap="xs">
          <Stack gap={2}>
            <Title order={3} size="h4">
              {app.definition_name}
            </Title>
            <Text size="sm" c="dimmed">
              {app.customer_name} ·{' '}
              <Anchor component={Link} to={href('s:lms-application', { id: app.id })} size="sm">
                {app.reference}
              </Anchor>
            </Text>
          </Stack>
          <ApplicationStateBadge state={app.state} label={app.state_label} />
        </Group>
        <SummaryList
          inCard
          rows={[
            { label: 'Application', value: app.kind_label },
            ...(app.fee_pence > 0 ? [{ label: 'Fee', value: app.fee_display }] : []),
            { label: 'Applied', value: formatDate(app.submitted_at) },
            ...(app.licence_number ? [{ label: 'Licence number', value: app.licence_number }] : []),
          ]}
        />
        {sent && (
          <Alert color="teal" variant="light" role="status" data-testid="reply-sent">
            Your reply was sent to {app.customer_name}.
          </Alert>
        )}
        {app.state === 'more_info_requested' && app.info_request && (
          <Suspense fallback={null}>
            <ReplyBox app={app} onSent={() => setSent(true)} />
          </Suspense>
        )}
        {next && (
          <Button
            component={Link}
            to={next.to}
            size="md"
            mih={44}
            variant={app.state === 'more_info_requested' ? 'default' : 'filled'}
            style={{ alignSelf: 'flex-start' }}
          >
            {next.label}
          </Button>
        )}
        {renew && (
          <Button
            component={Link}
            to={renew.to}
            size="md"
            mih={44}
            style={{ alignSelf: 'flex-start' }}
            data-testid="renew-licence"
          >
            {renew.label}
          </Button>
        )}
      </Stack>
    </Paper>
  );
}

/**
 * The subject's licence applications on their dashboard (GET /api/lms/s/applications/): each
 * with its state, the way on, and the council's question with a reply box while more
 * information is requested. Without applications, a line on where to apply.
 */
export function LicenceApplications() {
  const apps = useQuery(lmsSubject.applications());
  const find = (
    <Anchor component={Link} to={href('s:lms-council-list')}>
      Apply for a licence from your council
    </Anchor>
  );
  if (!apps.data) {
    return <Skeleton h={120} radius="lg" aria-hidden="true" />;
  }
  if (apps.data.state === 'missing') return null;
  if (apps.data.state !== 'ready') {
    return (
      <Group gap="sm" role="alert" data-testid="licence-applications-failed">
        <Text size="sm">Your licence applications could not be loaded.</Text>
        <Button variant="default" size="md" mih={44} onClick={() => void apps.refetch()}>
          Try again
        </Button>
      </Group>
    );
  }
  const rows = [...apps.data.data.results].sort(
    (a, b) => RANK[a.state] - RANK[b.state] || b.submitted_at.localeCompare(a.submitted_at),
  );
  if (rows.length === 0) {
    return (
      <Text size="sm" data-testid="licence-applications-none">
        Need a licence? {find}.
      </Text>
    );
  }
  return (
    <Stack gap="sm" component="section" aria-label="Licence applications">
      <Title order={2} size="h3">
        Licence applications
      </Title>
      <Stack component="ul" gap="md" p={0} m={0} style={{ listStyle: 'none' }}>
        {rows.map((a) => (
          <ApplicationCard key={a.id} app={a} />
        ))}
      </Stack>
      <Text size="sm">{find}</Text>
    </Stack>
  );
}
