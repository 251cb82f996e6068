import { MESSAGES } from '@kestrel/domain';
import { Alert, Anchor, Button, Checkbox, Paper, Stack, Text, Title } from '@mantine/core';
import { useState } from 'react';
import { useNavigate, useSearchParams } from 'react-router';
import { failureMessage } from '../../api/messages';
import { currentBrand } from '../../app/brands';
import { DateSelector } from '../../components/date-selector';
import { ErrorSummary, type SummaryError } from '../../components/form-kit';
import { href, safeNext } from '../../config/paths';
import { saveProfile, useSubjectProfile } from '../../lib/session/profile';

/** A subject must give a date of birth and agree to the terms before anything else (spec point 2). */
export default function CompleteProfilePage() {
  const profile = useSubjectProfile();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const [dob, setDob] = useState<string | null>(profile?.dob ?? null);
  const [agreed, setAgreed] = useState(Boolean(profile?.terms_agreed_at));
  const [tried, setTried] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  if (!profile) return null;
  const problems: SummaryError[] = tried
    ? [
        ...(dob ? [] : [{ field: 'complete-dob', message: `Date of birth: ${MESSAGES.required}` }]),
        ...(agreed
          ? []
          : [{ field: 'complete-terms', message: `Terms of use: ${MESSAGES.pleaseConfirm}` }]),
      ]
    : [];
  const submit = async (event: React.FormEvent) => {
    event.preventDefault();
    setTried(true);
    if (!dob || !agreed) return;
    setBusy(true);
    const r = await saveProfile(profile.terms_agreed_at ? { dob } : { dob, terms_agreed: true });
    setBusy(false);
    if (r.ok) navigate(safeNext(params.get('next'), href('s:dashboard')), { replace: true });
    else
      setError(failureMessage(r, { action: 'update', name: 'profile', showBackendErrors: true }));
  };
  return (
    <Stack gap="lg" maw={560} mx="auto" w="100%">
      <Stack gap={4}>
        <Title order={1}>Complete your profile</Title>
        <Text c="dimmed">We need two things before you can continue.</Text>
      </Stack>
      <Paper withBorder radius="lg" p={{ base: 'md', sm: 'xl' }}>
        <form onSubmit={submit} noValidate>
          <Stack gap="lg">
            <ErrorSummary errors={problems} />
            {error && (
              <Alert color="red" variant="light" role="alert" style={{ whiteSpace: 'pre-line' }}>
                {error}
              </Alert>
            )}
            <div id="complete-dob">
              <DateSelector
                label="Date of birth"
                value={dob}
                onChange={setDob}
                error={tried && !dob ? MESSAGES.required : undefined}
              />
            </div>
            <Checkbox
              id="complete-terms"
              size="md"
              checked={agreed}
              onChange={(e) => setAgreed(e.currentTarget.checked)}
              label={
                <>
                  I agree to the {currentBrand.name}{' '}
                  <Anchor href="#terms" inherit>
                    terms of use and privacy notice
                  </Anchor>
                </>
              }
              error={tried && !agreed ? MESSAGES.pleaseConfirm : undefined}
            />
            <Button type="submit" size="lg" loading={busy}>
              Continue
            </Button>
          </Stack>
        </form>
      </Paper>
    </Stack>
  );
}
