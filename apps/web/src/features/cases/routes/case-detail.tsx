import {
  closedByErasure,
  ERASURE_CASE_NOTICE,
  formatDate,
  formatPhone,
  type ResultAudience,
  subjectAccountText,
} from '@kestrel/domain';
import {
  Alert,
  Anchor,
  Badge,
  Grid,
  Group,
  Paper,
  SimpleGrid,
  Skeleton,
  Stack,
  Text,
  Title,
} from '@mantine/core';
import { lazy, Suspense } from 'react';
import { Link, useParams } from 'react-router';
import { cases } from '../../../api/cases';
import { BackToList } from '../../../components/back-to-list';
import { CopyButton } from '../../../components/copy-button';
import { Fact } from '../../../components/fact';
import { ResendInvitationButton } from '../../../components/resend-invitation-button';
import { StateBadge } from '../../../components/state-badge';
import { href } from '../../../config/paths';
import { useRights } from '../../../lib/rights';
import { useProductProfile } from '../../../lib/session/profile';
import { CaseViews } from '../../audit';
import { CasePaymentBanner } from '../../payments';
import { DocumentCollectionPanel, resultPanelFor } from '../../results';
import { ActivityCard } from '../components/activity-card';
import { CaseActions } from '../components/case-actions';
import { CaseReport, usePrintReport } from '../components/case-report';
import { OpsCaseElsewhere } from '../components/ops-case-elsewhere';

// The case data editing screen (issue 15) loads on its own, after the case.
const CaseDataPanel = lazy(() => import('../../case-data'));
// The case's documents (issue 16): thumbnails, viewer and Open, by collector; shown on their own
// only when no activity's panel lists them already (`listsDocuments`).
const CaseDocumentsCard = lazy(() =>
  import('../../documents').then((m) => ({ default: m.CaseDocumentsCard })),
);
// The case's legal hold and retention dates (issue 34): the customer's, on a chunk of its own.
const CaseRetentionCard = lazy(() =>
  import('../../retention').then((m) => ({ default: m.CaseRetentionCard })),
);

/**
 * Whether an activity card of the case lists the case's documents already: the document
 * collection's panel (the richer list: every document by collector, with the review); the page
 * then shows no Documents card of its own, so each document shows once.
 */
export function listsDocuments(codes: readonly string[], audience: ResultAudience): boolean {
  return codes.some((code) => resultPanelFor(code, audience) === DocumentCollectionPanel);
}

export default function CaseDetailPage() {
  const { id = '' } = useParams();
  const query = cases.useItem(id);
  const profile = useProductProfile();
  const { can } = useRights();
  const print = usePrintReport();
  const c = query.data;
  if (!c) {
    const notFound = <Text c="dimmed">This case could not be found.</Text>;
    return query.isError ? (
      <Stack>
        <Title order={1}>Case</Title>
        {profile?.is_ops ? <OpsCaseElsewhere id={id} notFound={notFound} /> : notFound}
      </Stack>
    ) : (
      <Skeleton h={320} radius="lg" />
    );
  }
  const s = c.subject;
  const codes = c.case_activities.map((a) => a.activity_type);
  const audience: ResultAudience = profile?.is_ops ? 'ops' : 'customer';
  // a case an erasure closed (issue 34): its answers are gone and the subject is not asked again
  const erased = closedByErasure(c);
  return (
    <Stack gap="lg">
      {/* What Print prints (hidden on screen, there only while printing): the case report. */}
      {print.printing && (
        <CaseReport
          item={c}
          organisation={profile?.customer?.name}
          printedBy={profile ? `${profile.first_name} ${profile.last_name}`.trim() : undefined}
        />
      )}
      <BackToList path={href('cases')} label="All cases" />
      <Group justify="space-between" align="flex-end">
        <Stack gap={6}>
          <Group gap="xs">
            <Title order={1}>Case #{c.id}</Title>
            <CopyButton value={String(c.id)} label="Copy case id" />
          </Group>
          <Group gap="xs">
            <StateBadge state={c.state} label={c.state_display} />
            {c.flagged && (
              <Badge color="red" variant="filled">
                Flagged
              </Badge>
            )}
            {c.is_archived && (
              <Badge color="gray" variant="light">
                Archived {formatDate(c.archived_at)}
              </Badge>
            )}
            <Text size="sm" c="dimmed">
              {c.process.name} · opened {formatDate(c.created_at)}
            </Text>
          </Group>
        </Stack>
        <CaseActions item={c} beforePrint={print.prepare} />
      </Group>
      {c.decision && (
        <Alert color={c.decision === 'satisfactory' ? 'teal' : 'red'} title="Decision">
          {c.decision === 'satisfactory' ? 'Satisfactory' : 'Unsatisfactory'}
          {c.completed_at ? ` on ${formatDate(c.completed_at)}` : ''}
          {c.decision_notes ? ` — ${c.decision_notes}` : ''}
        </Alert>
      )}
      <CasePaymentBanner caseId={c.id} payment={c.payment} />
      {c.state === 'cancelled' && (
        <Alert color="red" title="Cancelled">
          {c.cancelled_reason || 'This case was cancelled.'}
        </Alert>
      )}
      <Grid gap="lg">
        <Grid.Col span={{ base: 12, md: 5 }}>
          <Stack gap="lg">
            <Paper withBorder radius="lg" p="lg">
              <Text fw={650} mb="sm">
                Subject
              </Text>
              <SimpleGrid cols={2} spacing="md">
                <Fact label="Name">
                  <Anchor component={Link} to={href('subject', { id: s.id })}>
                    {[s.first_name, s.middlename, s.last_name].filter(Boolean).join(' ')}
                  </Anchor>
                </Fact>
                <Fact label="Email">{s.email}</Fact>
                <Fact label="Date of birth">{formatDate(s.dob)}</Fact>
                <Fact label="Phone">{formatPhone(s.phone_number)}</Fact>
                <Fact label="Portal account">{subjectAccountText(s.has_account)}</Fact>
              </SimpleGrid>
              {/* no invitation from a case held back for its payment (the banner says why) */}
              {!s.has_account &&
                !erased &&
                can('subjects.change_subject') &&
                c.payment?.state !== 'payment_needed' && (
                  <Group mt="md">
                    <ResendInvitationButton subjectId={s.id} />
                  </Group>
                )}
            </Paper>
            <Paper withBorder radius="lg" p="lg" data-testid="case-summary">
              <Text fw={650} mb="sm">
                Case data summary
              </Text>
              <SimpleGrid cols={2} spacing="md">
                <Fact label="Checks">{String(c.summary.activities)}</Fact>
                <Fact label="Open">{String(c.summary.open)}</Fact>
                <Fact label="Complete">{String(c.summary.complete)}</Fact>
                <Fact label="Cancelled">{String(c.summary.cancelled)}</Fact>
                <Fact label="Last update">{formatDate(c.updated_at)}</Fact>
                <Fact label="Process">
                  <Anchor component={Link} to={href('process', { id: c.process.id })}>
                    {c.process.name}
                  </Anchor>
                </Fact>
              </SimpleGrid>
            </Paper>
          </Stack>
        </Grid.Col>
        <Grid.Col span={{ base: 12, md: 7 }}>
          <Stack gap="sm">
            <Title order={2} size="h3">
              Checks
            </Title>
            {c.case_activities.map((a) => (
              <ActivityCard key={a.id} activity={a} caseActivityCodes={codes} />
            ))}
          </Stack>
        </Grid.Col>
      </Grid>
      {!listsDocuments(codes, audience) && (
        <Suspense fallback={<Skeleton h={120} radius="lg" />}>
          <CaseDocumentsCard caseId={c.id} />
        </Suspense>
      )}
      {erased ? (
        <Alert color="gray" title="Personal data erased" data-testid="erasure-notice">
          {ERASURE_CASE_NOTICE}
        </Alert>
      ) : (
        <Suspense fallback={<Skeleton h={240} radius="lg" />}>
          <CaseDataPanel caseId={c.id} />
        </Suspense>
      )}
      {audience === 'customer' && (
        <Suspense fallback={<Skeleton h={120} radius="lg" />}>
          <CaseRetentionCard caseId={c.id} />
        </Suspense>
      )}
      <CaseViews caseId={c.id} />
    </Stack>
  );
}
