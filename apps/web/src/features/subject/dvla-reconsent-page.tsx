import { formatDate, MESSAGES } from '@kestrel/domain';
import { Button, Checkbox, Paper, Skeleton, Stack, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useNavigate } from 'react-router';
import {
  dvlaConsentsDue,
  SUBJECT_CONSENTS_PARAMS,
  type SubjectConsent,
  subjectConsents,
  useDvlaReconsent,
} from '../../api/subject-consents';
import { ErrorSummary } from '../../components/form-kit';
import { href } from '../../config/paths';
import { LoadFailed } from './load-failed';

/** One consent due for renewal: what it is for, when it ends, the agreement and the button. */
function Renewal({ consent, onDone }: { consent: SubjectConsent; onDone: () => void }) {
  const renew = useDvlaReconsent();
  const [agreed, setAgreed] = useState(false);
  const [tried, setTried] = useState(false);
  const fieldId = `agree-${consent.id}`;
  const errors = tried && !agreed ? [{ field: fieldId, message: MESSAGES.pleaseConfirm }] : [];
  return (
    <Paper withBorder radius="lg" p={{ base: 'md', sm: 'xl' }} data-testid="dvla-renewal">
      <form
        noValidate
        onSubmit={(e) => {
          e.preventDefault();
          setTried(true);
          if (agreed) renew.mutate(consent.id, { onSuccess: onDone });
        }}
      >
        <Stack gap="md">
          <ErrorSummary errors={errors} />
          <Stack gap={2}>
            <Text fw={600}>
              {consent.customer_name}: {consent.activity_type_name}
            </Text>
            <Text size="sm" c="dimmed">
              Given on {formatDate(consent.given_at)}.{' '}
              {consent.expires_at &&
                `${consent.status === 'expired' ? 'Ended' : 'Ends'} on ${formatDate(consent.expires_at)}.`}
            </Text>
          </Stack>
          <Checkbox
            id={fieldId}
            size="md"
            checked={agreed}
            onChange={(e) => setAgreed(e.currentTarget.checked)}
            label={`I agree that ${consent.customer_name} may check my driving licence with the DVLA for the next 3 years.`}
            error={tried && !agreed ? MESSAGES.pleaseConfirm : undefined}
          />
          <Button
            type="submit"
            size="lg"
            loading={renew.isPending}
            style={{ alignSelf: 'flex-start' }}
          >
            Renew consent
          </Button>
        </Stack>
      </form>
    </Paper>
  );
}

/** /s/dvla-reconsent: renew the consent for driving licence checks when it is due (3 years). */
export default function DvlaReconsentPage() {
  const navigate = useNavigate();
  const consents = useQuery(subjectConsents.listOptions(SUBJECT_CONSENTS_PARAMS));
  const all = consents.data?.results ?? [];
  const due = dvlaConsentsDue(all);
  const current = all.filter((c) => c.kind === 'driver-data' && c.status === 'active');
  return (
    <Stack gap="lg" maw={640}>
      <Stack gap={4}>
        <Title order={1}>Driving licence consent</Title>
        <Text>
          To check your driving licence, the organisation needs your consent to ask the DVLA. Your
          consent lasts 3 years; after that we ask you to renew it.
        </Text>
      </Stack>
      {consents.isPending ? (
        <Skeleton h={160} radius="lg" aria-label="Loading your consents" />
      ) : consents.data?.failed ? (
        <LoadFailed what="consents" onRetry={() => consents.refetch()} />
      ) : due.length === 0 ? (
        <Paper withBorder radius="lg" p="xl" role="status" data-testid="dvla-up-to-date">
          <Stack gap={4}>
            <Text fw={600}>Nothing to renew</Text>
            <Text size="sm">
              {current[0]?.expires_at
                ? `Your consent for driving licence checks is valid until ${formatDate(current[0].expires_at)}.`
                : 'You have no consent for driving licence checks that needs renewing.'}
            </Text>
          </Stack>
        </Paper>
      ) : (
        due.map((c) => (
          <Renewal key={c.id} consent={c} onDone={() => navigate(href('s:dashboard'))} />
        ))
      )}
    </Stack>
  );
}
