import { formatDate } from '@kestrel/domain';
import { Alert, Button, Skeleton, Stack, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { Link } from 'react-router';
import { isCaseToDo, SUBJECT_DASHBOARD_PARAMS, subjectCases } from '../../api/subject-cases';
import {
  dvlaConsentsDue,
  SUBJECT_CONSENTS_PARAMS,
  subjectConsents,
} from '../../api/subject-consents';
import { ListState } from '../../components/list-states';
import { href } from '../../config/paths';
import { useSubjectProfile } from '../../lib/session/profile';
import { LicenceApplications } from '../lms-public';
import { CaseCard } from './case-card';
import { LoadFailed } from './load-failed';

/** /s/dashboard: every case the person has, across every customer, with the next step. */
export default function SubjectDashboardPage() {
  const profile = useSubjectProfile();
  const cases = useQuery(subjectCases.listOptions(SUBJECT_DASHBOARD_PARAMS));
  const consents = useQuery(subjectConsents.listOptions(SUBJECT_CONSENTS_PARAMS));
  const rows = cases.data?.results ?? [];
  // Cases to work on first, then the rest; newest first within each.
  const ordered = [...rows].sort(
    (a, b) =>
      Number(isCaseToDo(b)) - Number(isCaseToDo(a)) || b.created_at.localeCompare(a.created_at),
  );
  const due = dvlaConsentsDue(consents.data?.results ?? []);
  const toDo = rows.filter(isCaseToDo).length;
  return (
    <Stack gap="lg" maw={760}>
      <Stack gap={4}>
        <Title order={1}>{profile ? `Hello ${profile.first_name}` : 'Your checks'}</Title>
        {!cases.isPending && !cases.data?.failed && (
          <Text c="dimmed" data-testid="dashboard-summary">
            {toDo === 0
              ? 'You have nothing to do right now.'
              : toDo === 1
                ? 'You have 1 case to finish.'
                : `You have ${toDo} cases to finish.`}
          </Text>
        )}
      </Stack>
      {due.length > 0 && (
        <Alert
          color="orange"
          variant="light"
          title="Renew your consent for driving licence checks"
          data-testid="dvla-prompt"
        >
          <Stack gap="sm" align="flex-start">
            <Text size="sm">
              {due[0]?.expires_at
                ? `Your consent ${due[0].status === 'expired' ? 'ended' : 'ends'} on ${formatDate(due[0].expires_at)}.`
                : 'Your consent needs renewing.'}{' '}
              Driving licence checks cannot continue without it.
            </Text>
            <Button component={Link} to={href('s:dvla-reconsent')} size="md" mih={44}>
              Renew consent
            </Button>
          </Stack>
        </Alert>
      )}
      {cases.isPending ? (
        <Stack gap="md" aria-busy="true" aria-label="Loading your cases">
          <Skeleton h={180} radius="lg" />
          <Skeleton h={180} radius="lg" />
        </Stack>
      ) : cases.data?.failed ? (
        <LoadFailed what="cases" onRetry={() => cases.refetch()} />
      ) : ordered.length === 0 ? (
        <ListState
          kind="empty"
          plural="cases"
          empty={{
            title: 'No checks yet',
            text: 'When an organisation asks you to complete checks, they appear here and we email you.',
          }}
          onRetry={noop}
          onClear={noop}
        />
      ) : (
        ordered.map((c) => <CaseCard key={c.id} item={c} />)
      )}
      {/* Licence applications (issue 32): their state, and the council's questions. */}
      <LicenceApplications />
    </Stack>
  );
}

const noop = () => undefined;
