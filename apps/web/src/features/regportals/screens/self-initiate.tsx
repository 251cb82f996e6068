import { REGISTRATION_EXPIRY_HOURS, type RegistrationResultOut } from '@kestrel/domain';
import { Alert, Anchor, Button, Paper, Stack, Text, Title } from '@mantine/core';
import { useEffect, useRef, useState } from 'react';
import { Link, useNavigate, useParams, useSearchParams } from 'react-router';
import { href } from '../../../config/paths';
import { adoptNewSession } from '../../../lib/session/session-actions';
import { type PublicPortal, publicPortalPath } from '../api';
import { ConfirmForm } from '../components/confirm-form';
import { PortalGate, PortalHeading, usePortal } from '../components/portal-page';
import { PortalSummary } from '../components/portal-summary';
import { RegistrationForm } from '../components/registration-form';

type Step =
  | { kind: 'about' }
  | { kind: 'details' }
  | { kind: 'sent'; email: string; result: RegistrationResultOut };

/** Sign in as a subject, then continue to `next`. */
const signIn = (next: string) => href('login', {}, { next, subject: 'y' });

/** 'Check your email' (or, for someone registered and confirmed already, sign in). */
function Sent({ step }: { step: Extract<Step, { kind: 'sent' }> }) {
  const { result, email } = step;
  if (result.existing && result.state !== 'started') {
    return (
      <Stack gap="md">
        <Text>
          You have already registered and confirmed your email. Sign in to continue with your
          checks.
        </Text>
        <Button component={Link} to={signIn(result.next_url ?? href('s:dashboard'))} size="lg">
          Sign in
        </Button>
      </Stack>
    );
  }
  return (
    <Stack gap="md" data-testid="check-email">
      <Paper withBorder p="md" radius="md">
        <Text>
          We have sent a link to <strong style={{ overflowWrap: 'anywhere' }}>{email}</strong>.
        </Text>
      </Paper>
      <Text>
        Open the link in the email to confirm your address and choose a password. The link works for{' '}
        {REGISTRATION_EXPIRY_HOURS} hours.
      </Text>
      {result.existing && (
        <Text>You had already registered: we have sent the link to you again.</Text>
      )}
      <Text size="sm" c="dimmed">
        No email? Check your spam folder. It can take a few minutes to arrive.
      </Text>
    </Stack>
  );
}

function Registration({ portal, apiPath }: { portal: PublicPortal; apiPath: string }) {
  const [step, setStep] = useState<Step>({ kind: 'about' });
  const heading = useRef<HTMLHeadingElement>(null);
  const moved = useRef(false);
  // Each new step is a new page to a screen reader: the focus goes to its heading.
  // biome-ignore lint/correctness/useExhaustiveDependencies: on every change of step
  useEffect(() => {
    if (moved.current) heading.current?.focus();
    moved.current = true;
  }, [step.kind]);
  const title =
    step.kind === 'details'
      ? 'Your details'
      : step.kind === 'sent'
        ? step.result.existing && step.result.state !== 'started'
          ? 'You have already registered'
          : 'Check your email'
        : undefined;
  return (
    <Stack gap="lg">
      <PortalHeading portal={portal} title={title} headingRef={heading} />
      {step.kind === 'about' && (
        <>
          <PortalSummary portal={portal} />
          <Button size="lg" fullWidth onClick={() => setStep({ kind: 'details' })}>
            Start now
          </Button>
          <Text size="sm">
            Already registered?{' '}
            <Anchor component={Link} to={signIn(href('s:dashboard'))} fw={600}>
              Sign in
            </Anchor>
          </Text>
        </>
      )}
      {step.kind === 'details' && (
        <>
          <Anchor
            component="button"
            type="button"
            size="sm"
            onClick={() => setStep({ kind: 'about' })}
            style={{ alignSelf: 'flex-start' }}
          >
            ← Back
          </Anchor>
          <RegistrationForm
            portal={portal}
            apiPath={apiPath}
            onRegistered={(result, email) => setStep({ kind: 'sent', result, email })}
          />
        </>
      )}
      {step.kind === 'sent' && <Sent step={step} />}
    </Stack>
  );
}

/**
 * The emailed link (?confirm=token): choose a password, then on to pay or to the case; with
 * neither ready yet, to the portal's signed-in page, which says how the registration stands.
 */
function Confirm({
  portal,
  apiPath,
  token,
  mine,
}: {
  portal: PublicPortal;
  apiPath: string;
  token: string;
  /** This portal's /s/ page. */
  mine: string;
}) {
  const navigate = useNavigate();
  const onConfirmed = async (next: string | null) => {
    await adoptNewSession();
    navigate(href('bootstrap', {}, { next: next ?? mine }), { replace: true });
  };
  return (
    <Stack gap="lg">
      <PortalHeading portal={portal} title="Confirm your email" />
      <Text>
        Choose a password for your account. You will use it to sign in and follow your checks
        {portal.payer === 'subject' ? ', after paying for them' : ''}.
      </Text>
      <ConfirmForm apiPath={apiPath} token={token} onConfirmed={onConfirmed} />
    </Stack>
  );
}

/**
 * /self-initiate/:segmentId/:portalPath: a member of the public registers for a process's
 * checks (GOV.UK-like, phone first): what will be checked and what it costs, their details,
 * then 'Check your email'. The emailed link opens it with ?confirm= to choose a password.
 */
export default function SelfInitiate() {
  const { segmentId = '', portalPath = '' } = useParams();
  const [params] = useSearchParams();
  const token = params.get('confirm');
  const apiPath = publicPortalPath(segmentId, portalPath);
  const load = usePortal(apiPath);
  if (token !== null && token === '') {
    return (
      <Stack gap="md">
        <Title order={1}>Confirm your email</Title>
        <Alert color="red" variant="light" role="alert" title="This link is incomplete">
          Open the link from your email again.
        </Alert>
      </Stack>
    );
  }
  return (
    <PortalGate load={load} whenUnavailable={token !== null}>
      {(portal) =>
        token ? (
          <Confirm
            portal={portal}
            apiPath={apiPath}
            token={token}
            mine={href('s:self-initiate', { segmentId, portalPath })}
          />
        ) : (
          <Registration portal={portal} apiPath={apiPath} />
        )
      }
    </PortalGate>
  );
}
