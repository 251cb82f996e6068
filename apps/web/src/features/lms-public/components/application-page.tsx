import { formatDate } from '@kestrel/domain';
import { Alert, Button, Stack, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { Suspense, useState } from 'react';
import { Link, useParams } from 'react-router';
import { href } from '../../../config/paths';
import { lmsSubject, type SubjectApplicationOut } from '../api';
import { ApplicationStateBadge, nextStepOf, renewStepOf } from './application-state';
import { Breadcrumbs } from './breadcrumbs';
import { SummaryList } from './choices';
import { ReplyBox } from './licence-applications';
import { linksOf } from './links';
import { LoadState } from './load-state';

/** What the state means for the applicant, in a sentence. */
function stateText(app: SubjectApplicationOut): string {
  switch (app.state) {
    case 'awaiting_payment':
      return `The fee of ${app.fee_display} is due before your checks can start.`;
    case 'in_progress':
      return `Your checks are under way. ${app.customer_name} decides once they are complete.`;
    case 'more_info_requested':
      return `${app.customer_name} needs more information before deciding.`;
    case 'granted':
      return `${app.customer_name} granted your licence.`;
    case 'refused':
      return `${app.customer_name} refused your application. They have written to you with the reason.`;
    case 'withdrawn':
      return 'This application was withdrawn.';
    case 'expired':
      return 'This application expired before it was completed.';
  }
}

/** /s/lms/applications/{id}: one of the subject's licence applications and its way on. */
export function ApplicationPage() {
  const { id = '' } = useParams();
  const query = useQuery(lmsSubject.application(id));
  const [sent, setSent] = useState(false);
  const load = query.data;
  if (load?.state !== 'ready') {
    return (
      <LoadState
        load={load ?? 'loading'}
        home={linksOf('subject').councils()}
        onRetry={() => void query.refetch()}
      />
    );
  }
  const app = load.data;
  const here = href('s:lms-application', { id: app.id });
  const next = nextStepOf(app.next_url, app.fee_display);
  const renew = renewStepOf(app.renew_url);
  return (
    <Stack gap="lg" maw={720} w="100%">
      <Breadcrumbs
        crumbs={[{ label: 'Your checks', to: href('s:dashboard') }, { label: app.reference }]}
      />
      <Stack gap={4}>
        <Text c="dimmed" size="lg" data-testid="lms-caption">
          {app.customer_name}
        </Text>
        <Title order={1}>{app.definition_name}</Title>
      </Stack>
      <Stack gap="xs" align="flex-start">
        <ApplicationStateBadge state={app.state} label={app.state_label} />
        <Text size="lg" data-testid="application-state-text">
          {stateText(app)}
        </Text>
      </Stack>
      <SummaryList
        testId="application-facts"
        rows={[
          { label: 'Reference', value: app.reference },
          { label: 'Application', value: `${app.kind_label}: ${app.portal_title}` },
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
      {next && next.to !== here && (
        <Button
          component={Link}
          to={next.to}
          size="lg"
          mih={48}
          style={{ alignSelf: 'flex-start' }}
        >
          {next.label}
        </Button>
      )}
      {renew && (
        <Stack gap="xs" align="flex-start" data-testid="renew-licence-box">
          <Text>
            Your licence {app.licence_number} can be renewed before it expires: apply to{' '}
            {app.customer_name} for its renewal.
          </Text>
          <Button component={Link} to={renew.to} size="lg" mih={48} data-testid="renew-licence">
            {renew.label}
          </Button>
        </Stack>
      )}
    </Stack>
  );
}
