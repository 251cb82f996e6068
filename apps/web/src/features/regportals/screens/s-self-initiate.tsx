import { REGISTRATION_STATE_LABELS, type RegistrationState } from '@kestrel/domain';
import { Alert, Button, Stack, Text } from '@mantine/core';
import { useState } from 'react';
import { useNavigate, useParams } from 'react-router';
import { register, subjectPortalPath } from '../api';
import { PortalGate, PortalHeading, usePortal } from '../components/portal-page';
import { PortalSummary } from '../components/portal-summary';
import { TOO_MANY } from '../components/registration-form';

/**
 * /s/self-initiate/:segmentId/:portalPath: a signed-in subject starts a portal's checks with one
 * button (their details are known); they go on to pay, or to the new case's portal.
 */
export default function SubjectSelfInitiate() {
  const { segmentId = '', portalPath = '' } = useParams();
  const apiPath = subjectPortalPath(segmentId, portalPath);
  const load = usePortal(apiPath);
  const navigate = useNavigate();
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  const [waiting, setWaiting] = useState<RegistrationState | null>(null);
  const start = async () => {
    setBusy(true);
    setFailure(null);
    const r = await register(apiPath, {});
    if (r.ok && r.data.next_url) {
      navigate(r.data.next_url);
      return;
    }
    if (r.ok) {
      // Nowhere to go yet: the registration waits (for its payment).
      setBusy(false);
      setWaiting(r.data.state);
      return;
    }
    setBusy(false);
    const detail = typeof r.data.detail === 'string' ? r.data.detail : null;
    setFailure(
      r.status === 429 ? TOO_MANY : (detail ?? 'Your checks could not be started. Try again.'),
    );
  };
  return (
    <Stack gap="lg" maw={640}>
      <PortalGate load={load}>
        {(portal) => (
          <Stack gap="lg">
            <PortalHeading portal={portal} />
            <PortalSummary portal={portal} />
            {waiting && (
              <Alert
                color="blue"
                variant="light"
                role="status"
                title={`Your registration: ${REGISTRATION_STATE_LABELS[waiting].toLowerCase()}`}
              >
                {waiting === 'awaiting_payment'
                  ? 'Your checks start once they are paid for. Paying is not possible just now: try again later.'
                  : 'Your checks have not started yet. Try again later.'}
              </Alert>
            )}
            {failure && (
              <Alert color="red" variant="light" role="alert">
                {failure}
              </Alert>
            )}
            <Button size="lg" fullWidth loading={busy} onClick={() => void start()}>
              Start my checks
            </Button>
            <Text size="sm" c="dimmed">
              The checks are added to your account with the details you have given us.
            </Text>
          </Stack>
        )}
      </PortalGate>
    </Stack>
  );
}
