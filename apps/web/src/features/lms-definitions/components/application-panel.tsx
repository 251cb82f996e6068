import { APPLICATION_STATE_LABELS, formatDate, isOpenApplicationState } from '@kestrel/domain';
import { Alert, Badge, Button, Group, Paper, Skeleton, Stack, Text, Title } from '@mantine/core';
import { useState } from 'react';
import { Link } from 'react-router';
import { backendErrorLines } from '../../../api/messages';
import { ApiFailure } from '../../../api/resource';
import { Fact } from '../../../components/fact';
import { StateBadge } from '../../../components/state-badge';
import { href } from '../../../config/paths';
import { notify } from '../../../lib/notify';
import { useRights } from '../../../lib/rights';
import { type ApplicationDetail, applications, useApplicationAction } from '../api';
import { ApplicationStateBadge, ChecksProgress } from './application-state';
import { DECISIONS, type Decision, DecisionDialog } from './decision-dialog';

const TAX_COLOURS: Record<string, string> = {
  not_checked: 'gray',
  confirmed: 'teal',
  failed: 'red',
  expired: 'orange',
};

function Checks({ application: a }: { application: ApplicationDetail }) {
  return (
    <Stack gap="xs">
      <Group justify="space-between">
        <Title order={3} size="h5">
          Checks
        </Title>
        <ChecksProgress done={a.checks_done} total={a.checks_total} />
      </Group>
      {a.checks.length === 0 ? (
        <Text size="sm" c="dimmed">
          {a.case_id === null ? 'The checks start once the fee is paid.' : 'No checks.'}
        </Text>
      ) : (
        <Stack gap={6} component="ul" m={0} p={0} style={{ listStyle: 'none' }}>
          {a.checks.map((c) => (
            <Group component="li" key={c.kind} justify="space-between" wrap="nowrap" gap="sm">
              <Text size="sm">{c.label}</Text>
              <StateBadge state={c.state} label={c.state_label} />
            </Group>
          ))}
        </Stack>
      )}
      {a.case_id !== null && (
        <Button
          component={Link}
          to={href('case-detail', { id: a.case_id })}
          variant="subtle"
          size="compact-sm"
          style={{ alignSelf: 'flex-start' }}
        >
          Open the case
        </Button>
      )}
    </Stack>
  );
}

function TaxCheck({
  application: a,
  mayDecide,
}: {
  application: ApplicationDetail;
  mayDecide: boolean;
}) {
  const t = a.tax_check;
  const run = useApplicationAction(a.id);
  const [problems, setProblems] = useState<string[]>([]);
  const check = async () => {
    setProblems([]);
    try {
      await run.mutateAsync({ action: 'tax-check' });
      notify.success('Tax check code checked with HMRC');
    } catch (error) {
      setProblems(
        error instanceof ApiFailure && error.status >= 400 && error.status < 500
          ? backendErrorLines(error.body)
          : ['HMRC could not be reached. Try again.'],
      );
    }
  };
  const canCheck =
    mayDecide && t.needed === 'code' && t.code !== null && isOpenApplicationState(a.state);
  return (
    <Stack gap="xs" data-testid="tax-check">
      <Group justify="space-between">
        <Title order={3} size="h5">
          HMRC tax check
        </Title>
        <Badge
          variant="light"
          color={TAX_COLOURS[t.status] ?? 'gray'}
          style={{ minWidth: 'max-content' }}
        >
          {t.status_label}
        </Badge>
      </Group>
      {t.needed === 'code' ? (
        <Text size="sm">
          Tax check code: <strong>{t.code ?? 'not given'}</strong>
          {t.checked_at && ` · checked ${formatDate(t.checked_at)}`}
        </Text>
      ) : (
        <Text size="sm" c="dimmed">
          No code needed: a new applicant confirms they know their tax responsibilities.
        </Text>
      )}
      {t.message && <Text size="sm">{t.message}</Text>}
      {problems.length > 0 && (
        <Alert color="red" role="alert" title="Not checked">
          {problems.map((p) => (
            <Text key={p} size="sm">
              {p}
            </Text>
          ))}
        </Alert>
      )}
      {canCheck && (
        <Button
          variant="light"
          onClick={() => void check()}
          loading={run.isPending}
          style={{ alignSelf: 'flex-start' }}
        >
          Check with HMRC
        </Button>
      )}
    </Stack>
  );
}

function RegisterMatches({ application: a }: { application: ApplicationDetail }) {
  if (a.register_matches.length === 0) return null;
  return (
    <Alert
      color="orange"
      variant="light"
      title={`On the register: ${a.register_matches.length} earlier ${
        a.register_matches.length === 1 ? 'decision' : 'decisions'
      } about this person`}
      data-testid="register-matches"
    >
      <Stack gap="xs">
        {a.register_matches.map((m) => (
          <Stack
            key={`${m.kind}-${m.licence_id ?? ''}-${m.application_id ?? ''}-${m.date}`}
            gap={0}
          >
            <Text size="sm" fw={600}>
              {m.kind_label} · {m.definition_name}
              {m.licence_number ? ` · ${m.licence_number}` : ''} · {formatDate(m.date)}
            </Text>
            <Text size="sm">
              {m.name}
              {m.dob ? `, born ${formatDate(m.dob)}` : ''}: {m.reason}
            </Text>
          </Stack>
        ))}
      </Stack>
    </Alert>
  );
}

function Decided({ application: a }: { application: ApplicationDetail }) {
  if (a.state === 'granted')
    return (
      <Alert color="teal" variant="light" title="Licence granted">
        <Text size="sm">
          Licence {a.licence_number ?? ''} issued
          {a.decided_at ? ` on ${formatDate(a.decided_at)}` : ''}.
        </Text>
      </Alert>
    );
  if (a.state === 'refused')
    return (
      <Alert color="red" variant="light" title="Refused">
        <Text size="sm">{a.decision_reason}</Text>
      </Alert>
    );
  return null;
}

/** One application: applicant, checks, tax check, register matches and the decisions. */
export function ApplicationPanel({ id }: { id: number }) {
  const { can } = useRights();
  const query = applications.useItem(id);
  const [decision, setDecision] = useState<Decision | null>(null);
  const a = query.data;
  if (!a)
    return query.isError ? (
      <Text c="dimmed">This application could not be found.</Text>
    ) : (
      <Skeleton h={320} radius="lg" />
    );
  const mayDecide = can('lms_licences.change_licence') && isOpenApplicationState(a.state);
  // As the API allows: a grant or a question only while in progress (the checks running).
  const decisions: Decision[] =
    a.state === 'in_progress'
      ? ['grant', 'refuse', 'request-info']
      : a.state === 'more_info_requested'
        ? ['refuse']
        : a.state === 'awaiting_payment'
          ? ['record-payment', 'refuse']
          : [];
  return (
    <Stack gap="lg" data-testid="application-panel">
      <Stack gap={4}>
        <Group gap="xs">
          <ApplicationStateBadge state={a.state} label={a.state_label} />
          <Text size="sm" c="dimmed">
            {a.reference} · {a.kind_label} · {a.fee_display}
          </Text>
        </Group>
        <Title order={2} size="h3">
          {a.applicant.name}
        </Title>
      </Stack>
      <Paper withBorder radius="md" p="md">
        <Group grow align="flex-start" gap="md" wrap="wrap">
          <Fact label="Email">{a.applicant.email}</Fact>
          <Fact label="Date of birth">{a.applicant.dob ? formatDate(a.applicant.dob) : ''}</Fact>
          <Fact label="Applied">{formatDate(a.submitted_at)}</Fact>
        </Group>
      </Paper>
      <RegisterMatches application={a} />
      {a.info_request && a.state === 'more_info_requested' && (
        <Alert color="yellow" variant="light" title="Asked of the applicant">
          <Text size="sm">{a.info_request}</Text>
        </Alert>
      )}
      <Decided application={a} />
      <Paper withBorder radius="md" p="md">
        <Checks application={a} />
      </Paper>
      <Paper withBorder radius="md" p="md">
        <TaxCheck application={a} mayDecide={mayDecide} />
      </Paper>
      {mayDecide && decisions.length > 0 && (
        <Group gap="sm">
          {decisions.map((d) => (
            <Button
              key={d}
              variant={d === 'grant' || d === 'record-payment' ? 'filled' : 'default'}
              color={d === 'refuse' ? 'red' : undefined}
              onClick={() => setDecision(d)}
            >
              {DECISIONS[d].verb}
            </Button>
          ))}
        </Group>
      )}
      {a.events.length > 0 && (
        <Stack gap={6}>
          <Title order={3} size="h5">
            History
          </Title>
          <Stack gap={4} component="ul" m={0} pl="md">
            {a.events.map((e) => (
              <Text component="li" size="sm" key={e.id}>
                {formatDate(e.created_at)}: {APPLICATION_STATE_LABELS[e.to_state]}
                {e.actor_name ? ` by ${e.actor_name}` : ''}
                {e.message ? `: ${e.message}` : ''}
              </Text>
            ))}
          </Stack>
        </Stack>
      )}
      <DecisionDialog application={a} decision={decision} onClose={() => setDecision(null)} />
    </Stack>
  );
}
