import { formatDate, formatPhone, REGISTRATION_STATE_LABELS } from '@kestrel/domain';
import {
  Alert,
  Anchor,
  Button,
  Group,
  Paper,
  SimpleGrid,
  Skeleton,
  Stack,
  Text,
  Title,
} from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { Link, useParams } from 'react-router';
import { BackToList } from '../../../components/back-to-list';
import { Fact } from '../../../components/fact';
import { href } from '../../../config/paths';
import { formatDateTime } from '../../../lib/date-time';
import { useRights } from '../../../lib/rights';
import { type PortalRegistrationDetail, portalRegistrations, useResendConfirmation } from '../api';
import { RegistrationStateBadge } from '../components/registration-state-badge';

/** The registration's events, oldest first: its state at each step and what happened. */
function Events({ r }: { r: PortalRegistrationDetail }) {
  if (r.events.length === 0) return <Text size="sm">Nothing has happened yet.</Text>;
  return (
    <Stack
      gap="sm"
      component="ol"
      style={{ listStyle: 'none', padding: 0, margin: 0 }}
      data-testid="registration-events"
    >
      {r.events.map((e) => (
        <li key={`${e.at}-${e.state}`}>
          <Text size="sm" fw={600}>
            {REGISTRATION_STATE_LABELS[e.state]}
          </Text>
          <Text size="sm" c="dimmed">
            {formatDateTime(e.at)}
            {e.note ? ` · ${e.note}` : ''}
          </Text>
        </li>
      ))}
    </Stack>
  );
}

/** What the registration led to: its payment (when the subject pays) and its case. */
function Outcome({ r }: { r: PortalRegistrationDetail }) {
  return (
    <Stack gap="xs">
      <Fact label="Payment">
        {r.payment_intent_id === null ? (
          'None'
        ) : (
          <Anchor component={Link} to={href('payment', { id: `portal-${r.payment_intent_id}` })}>
            See the payment
          </Anchor>
        )}
      </Fact>
      <Fact label="Case">
        {r.case_id === null ? (
          r.state === 'expired' ? (
            'None: the registration expired'
          ) : (
            'Not yet: the case opens once the email is confirmed (and paid for, when the person pays)'
          )
        ) : (
          <Anchor component={Link} to={href('case-detail', { id: r.case_id })}>
            Case #{r.case_id}
          </Anchor>
        )}
      </Fact>
      {r.subject_id !== null && (
        <Fact label="Subject">
          <Anchor component={Link} to={href('subject', { id: r.subject_id })}>
            {`${r.first_name} ${r.last_name}`}
          </Anchor>
        </Fact>
      )}
    </Stack>
  );
}

function ResendConfirmation({ id }: { id: number }) {
  const resend = useResendConfirmation();
  return (
    <Button
      variant="default"
      loading={resend.isPending}
      onClick={() => resend.mutate(id)}
      style={{ alignSelf: 'flex-start' }}
    >
      Resend confirmation
    </Button>
  );
}

/** /portal-registrations/{id}: the person, the state, the events, the payment and the case. */
export default function PortalRegistration() {
  const { id = '' } = useParams();
  const q = useQuery(portalRegistrations.itemOptions(id));
  // the server's permission for the resend (a reader sees the registration, sends nothing)
  const mayResend = useRights().can('subjects.add_subject');
  const back = <BackToList path={href('subject-registrations')} label="All registrations" />;
  if (q.isError) {
    return (
      <Stack>
        {back}
        <Title order={1}>Registration</Title>
        <Alert color="red" title="Registration not found">
          This registration does not exist or could not be read.
        </Alert>
      </Stack>
    );
  }
  const r = q.data;
  if (!r) {
    return (
      <Stack gap="lg">
        {back}
        <Title order={1}>Registration</Title>
        <Skeleton h={240} radius="lg" />
      </Stack>
    );
  }
  return (
    <Stack gap="lg">
      {back}
      <Stack gap={4}>
        <Group gap="sm" align="center">
          <Title order={1}>{`${r.first_name} ${r.last_name}`}</Title>
          <RegistrationStateBadge state={r.state} />
        </Group>
        <Text size="sm" c="dimmed">
          Registered through {r.portal_title} on {formatDate(r.started_at)}
        </Text>
      </Stack>
      {r.state === 'started' && (
        <Alert color="blue" variant="light" title="Waiting for the email to be confirmed">
          <Stack gap="sm">
            <Text size="sm">
              The person has not yet followed the link in the confirmation email. The registration
              expires on {formatDateTime(r.expires_at)} if it is not completed.
            </Text>
            {mayResend && <ResendConfirmation id={r.id} />}
          </Stack>
        </Alert>
      )}
      <SimpleGrid cols={{ base: 1, md: 2 }}>
        <Paper withBorder radius="lg" p="md" component="section" aria-labelledby="reg-person">
          <Title order={2} size="h4" mb="sm" id="reg-person">
            The person
          </Title>
          <Stack gap="xs">
            <Fact label="Name">{`${r.first_name} ${r.last_name}`}</Fact>
            <Fact label="Email">{r.email}</Fact>
            <Fact label="Date of birth">{r.dob ? formatDate(r.dob) : ''}</Fact>
            <Fact label="Phone number">{r.phone ? formatPhone(r.phone) : ''}</Fact>
          </Stack>
        </Paper>
        <Paper withBorder radius="lg" p="md" component="section" aria-labelledby="reg-outcome">
          <Title order={2} size="h4" mb="sm" id="reg-outcome">
            Registration
          </Title>
          <Stack gap="xs">
            <Fact label="State">{REGISTRATION_STATE_LABELS[r.state]}</Fact>
            <Fact label="Started">{formatDateTime(r.started_at)}</Fact>
            <Fact label="Email confirmed">
              {r.email_confirmed_at ? formatDateTime(r.email_confirmed_at) : 'Not yet'}
            </Fact>
            {r.case_id === null && r.state !== 'expired' && (
              <Fact label="Expires">{formatDateTime(r.expires_at)}</Fact>
            )}
            <Outcome r={r} />
          </Stack>
        </Paper>
      </SimpleGrid>
      <Paper withBorder radius="lg" p="md" component="section" aria-labelledby="reg-events">
        <Title order={2} size="h4" mb="sm" id="reg-events">
          Events
        </Title>
        <Events r={r} />
      </Paper>
    </Stack>
  );
}
