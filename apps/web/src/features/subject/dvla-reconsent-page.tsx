import { formatDate, MESSAGES } from '@kestrel/domain';
import { Button, Checkbox, Paper, Skeleton, Stack, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { Link } from 'react-router';
import {
  dvlaConsentsDue,
  SUBJECT_CONSENTS_PARAMS,
  type SubjectConsent,
  subjectConsents,
  useDvlaReconsent,
} from '../../api/subject-consents';
import {
  DVLA_MANDATE_LABEL,
  DvlaMandateText,
  mandateEndsFrom,
} from '../../components/dvla-mandate';
import { ErrorSummary } from '../../components/form-kit';
import { href } from '../../config/paths';
import { LoadFailed } from './load-failed';

const today = () => new Date().toISOString().slice(0, 10);

/**
 * One mandate due for renewal: the customer holding it and when it ends, the declaration (the
 * portal's driver-data section's words), the agreement and 'Renew my consent'.
 */
function Renewal({
  consent,
  onDone,
}: {
  consent: SubjectConsent;
  onDone: (c: SubjectConsent) => void;
}) {
  const renew = useDvlaReconsent();
  const [agreed, setAgreed] = useState(false);
  const [tried, setTried] = useState(false);
  const fieldId = `agree-${consent.id}`;
  const headingId = `mandate-${consent.id}`;
  const errors = tried && !agreed ? [{ field: fieldId, message: MESSAGES.pleaseConfirm }] : [];
  return (
    <Paper
      component="section"
      aria-labelledby={headingId}
      withBorder
      radius="lg"
      p={{ base: 'md', sm: 'xl' }}
      data-testid="dvla-renewal"
    >
      <form
        noValidate
        onSubmit={(e) => {
          e.preventDefault();
          setTried(true);
          if (agreed) renew.mutate(consent.id, { onSuccess: () => onDone(consent) });
        }}
      >
        <Stack gap="md">
          <ErrorSummary errors={errors} />
          <Stack gap={2}>
            <Title order={2} size="h4" id={headingId}>
              {consent.customer_name}
            </Title>
            <Text size="sm">{consent.activity_type_name}</Text>
            {consent.expires_at && (
              <Text size="sm" fw={600} data-testid="mandate-ends">
                {consent.status === 'expired'
                  ? `Your consent ended on ${formatDate(consent.expires_at)}.`
                  : `Your consent ends on ${formatDate(consent.expires_at)}.`}
              </Text>
            )}
          </Stack>
          <DvlaMandateText
            customerName={consent.customer_name}
            until={mandateEndsFrom(today())}
            fromToday
          />
          <Checkbox
            id={fieldId}
            size="md"
            checked={agreed}
            onChange={(e) => setAgreed(e.currentTarget.checked)}
            label={DVLA_MANDATE_LABEL}
            error={tried && !agreed ? MESSAGES.pleaseConfirm : undefined}
            styles={{ body: { minHeight: 44, alignItems: 'center' } }}
          />
          <Button
            type="submit"
            size="md"
            mih={44}
            loading={renew.isPending}
            style={{ alignSelf: 'flex-start' }}
          >
            Renew my consent
          </Button>
        </Stack>
      </form>
    </Paper>
  );
}

/** The confirmation of the renewals made on this visit, with the new end dates. */
function Renewed({ renewed, current }: { renewed: SubjectConsent[]; current: SubjectConsent[] }) {
  return (
    <Paper
      withBorder
      radius="lg"
      p={{ base: 'md', sm: 'xl' }}
      role="status"
      data-testid="dvla-renewed"
    >
      <Stack gap="sm" align="flex-start">
        <Title order={2} size="h4">
          Consent renewed
        </Title>
        {renewed.map((old) => {
          const now = current.find(
            (c) => c.case === old.case && c.case_activity === old.case_activity,
          );
          const until = now?.expires_at ?? mandateEndsFrom(today());
          return (
            <Text key={old.id} size="sm">
              Thank you. {old.customer_name} may check your driving licence with the DVLA until{' '}
              <strong>{formatDate(until)}</strong>. We will ask you again before then.
            </Text>
          );
        })}
        <Button component={Link} to={href('s:dashboard')} variant="light" size="md" mih={44}>
          Back to your checks
        </Button>
      </Stack>
    </Paper>
  );
}

/**
 * /s/dvla-reconsent: renew the consent for driving licence checks (the DVLA mandate, 3 years)
 * that is ending or has ended, at each customer holding one; the reminder emails link here.
 */
export default function DvlaReconsentPage() {
  const consents = useQuery(subjectConsents.listOptions(SUBJECT_CONSENTS_PARAMS));
  const [renewed, setRenewed] = useState<SubjectConsent[]>([]);
  const all = consents.data?.results ?? [];
  const due = dvlaConsentsDue(all).filter((c) => !renewed.some((r) => r.id === c.id));
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
      {renewed.length > 0 && <Renewed renewed={renewed} current={current} />}
      {consents.isPending ? (
        <Skeleton h={160} radius="lg" aria-label="Loading your consents" />
      ) : consents.data?.failed ? (
        <LoadFailed what="consents" onRetry={() => consents.refetch()} />
      ) : due.length === 0 ? (
        renewed.length === 0 && (
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
        )
      ) : (
        due.map((c) => (
          <Renewal key={c.id} consent={c} onDone={(old) => setRenewed((list) => [...list, old])} />
        ))
      )}
    </Stack>
  );
}
