import type { OnlineIdvProfile, OnlineIdvStartOut, SubjectOnlineIdvOut } from '@kestrel/domain';
import { Alert, Button, Group, Paper, Skeleton, Stack, Text, Title } from '@mantine/core';
import { useCallback, useEffect, useRef, useState } from 'react';
import { request } from '../../../api/client';
import { ErrorSummary } from '../../../components/form-kit';
import type { PortalSectionProps } from '../section-contract';

// The portal's online identity check section (issue 16). The person starts the check here and is
// sent to the provider's own page; coming back (`?idv=return`), the section asks for the result.
// States: not started, in progress, passed (the verified data, locked), failed (what next).
// A minimal layout of its own: the frame's SectionShell was not there yet when this was written.

const path = (caseId: number, action = '') => `/api/s/case-online-idv/${caseId}/${action}`;

export const TEXTS = {
  title: 'Verify your identity online',
  intro:
    'We use a certified identity service to check who you are. It takes about 5 minutes. You need your passport or photocard driving licence and a phone or computer with a camera.',
  start: 'Start identity check',
  inProgress: 'Your identity check is not finished',
  inProgressBody:
    'If you have finished with the identity service, check for your result. Otherwise carry on where you left off.',
  resume: 'Continue identity check',
  checkResult: 'Check for my result',
  stillWaiting: 'We have not had your result yet. Please try again in a minute.',
  passed: 'Your identity has been verified',
  passedBody:
    'These details came from the identity check. They cannot be changed here. If any of them is wrong, contact the organisation that asked you to complete this check.',
  failed: 'We could not verify your identity online',
  failedNext:
    'You can still continue. Your identity will be checked another way instead: you will be asked for your identity documents, and the organisation that asked you to complete this check may contact you.',
  continue: 'Continue',
  problem: 'There is a problem',
  loadFailed: 'Your identity check could not be loaded.',
  retry: 'Try again',
  genericError: 'An error has occurred',
} as const;

type Load =
  | { state: 'loading' }
  | { state: 'failed' }
  | { state: 'ready'; data: SubjectOnlineIdvOut };

/** `id_profile` as the server stores it (contracts/online-idv.ts), read defensively. */
function profileOf(data: SubjectOnlineIdvOut): Partial<OnlineIdvProfile> {
  const p = data.id_profile;
  return p && typeof p === 'object' ? (p as Partial<OnlineIdvProfile>) : {};
}

function errorOf(body: Record<string, unknown>): string {
  if (typeof body.detail === 'string') return body.detail;
  for (const value of Object.values(body)) {
    if (Array.isArray(value) && typeof value[0] === 'string') return value[0];
  }
  return TEXTS.genericError;
}

function VerifiedDetails({ profile }: { profile: Partial<OnlineIdvProfile> }) {
  const person = profile.person;
  const address = profile.address;
  const rows: [string, string][] = [];
  if (person) {
    rows.push([
      'Name',
      [person.forename, person.middlename, person.surname].filter(Boolean).join(' '),
    ]);
    rows.push([
      'Date of birth',
      new Date(`${person.dob}T00:00:00Z`).toLocaleDateString('en-GB', {
        day: 'numeric',
        month: 'long',
        year: 'numeric',
        timeZone: 'UTC',
      }),
    ]);
  }
  if (address) {
    rows.push([
      'Current address',
      [address.line_one, address.line_two, address.town, address.postcode]
        .filter(Boolean)
        .join(', '),
    ]);
  }
  if (profile.level_of_assurance)
    rows.push(['Level of assurance', profile.level_of_assurance === 'high' ? 'High' : 'Medium']);
  return (
    <Paper withBorder radius="md" p="md" component="dl" m={0} data-testid="idv-verified-details">
      {rows.map(([label, value]) => (
        <div key={label} style={{ marginBottom: 'var(--mantine-spacing-sm)' }}>
          <Text component="dt" size="sm" fw={600} c="dimmed">
            {label}
          </Text>
          <Text component="dd" m={0}>
            {value}{' '}
            <Text span size="sm" c="dimmed">
              (locked)
            </Text>
          </Text>
        </div>
      ))}
    </Paper>
  );
}

export default function OnlineIdvSection({
  caseId,
  readOnly,
  complete,
  refresh,
}: PortalSectionProps) {
  const [load, setLoad] = useState<Load>({ state: 'loading' });
  const [busy, setBusy] = useState<'start' | 'check' | 'continue' | null>(null);
  const [error, setError] = useState<{ message: string; target: string } | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const checkedOnReturn = useRef(false);

  const fetchState = useCallback(async () => {
    const r = await request<SubjectOnlineIdvOut>('GET', path(caseId), { expect: 200 });
    setLoad(r.ok ? { state: 'ready', data: r.data } : { state: 'failed' });
    return r.ok ? r.data : null;
  }, [caseId]);

  const checkResult = useCallback(
    async (quiet: boolean) => {
      setBusy('check');
      setError(null);
      const r = await request<SubjectOnlineIdvOut>('POST', path(caseId, 'refresh/'), {
        expect: 200,
      });
      setBusy(null);
      if (!r.ok) {
        if (!quiet) setError({ message: errorOf(r.data), target: 'idv-check' });
        return;
      }
      setLoad({ state: 'ready', data: r.data });
      if (r.data.status === 'in-progress') {
        if (!quiet) setNotice(TEXTS.stillWaiting);
      } else {
        setNotice(null);
        await refresh();
      }
    },
    [caseId, refresh],
  );

  useEffect(() => {
    void (async () => {
      const data = await fetchState();
      // back from the provider: ask for the result once (the callback may have stored it already)
      if (data?.status === 'in-progress' && !readOnly && !checkedOnReturn.current) {
        checkedOnReturn.current = true;
        if (new URLSearchParams(window.location.search).get('idv') === 'return')
          await checkResult(true);
      }
    })();
  }, [fetchState, checkResult, readOnly]);

  async function start() {
    setBusy('start');
    setError(null);
    const r = await request<OnlineIdvStartOut>('POST', path(caseId, 'start/'), { expect: 201 });
    if (!r.ok) {
      setBusy(null);
      setError({ message: errorOf(r.data), target: 'idv-start' });
      return;
    }
    window.location.assign(r.data.url);
  }

  async function next() {
    setBusy('continue');
    await complete();
    setBusy(null);
  }

  const body = (() => {
    if (load.state === 'loading') return <Skeleton h={160} radius="md" data-testid="idv-loading" />;
    if (load.state === 'failed') {
      return (
        <Alert color="red" variant="light" title={TEXTS.loadFailed}>
          <Button mt="sm" variant="default" mih={44} onClick={() => void fetchState()}>
            {TEXTS.retry}
          </Button>
        </Alert>
      );
    }
    const { data } = load;
    const profile = profileOf(data);
    if (data.status === 'not-started') {
      return (
        <Stack gap="md">
          <Text>{TEXTS.intro}</Text>
          {!readOnly && (
            <Group>
              <Button
                id="idv-start"
                size="md"
                mih={44}
                loading={busy === 'start'}
                onClick={() => void start()}
              >
                {TEXTS.start}
              </Button>
            </Group>
          )}
        </Stack>
      );
    }
    if (data.status === 'in-progress') {
      return (
        <Stack gap="md">
          <Title order={2} size="h3">
            {TEXTS.inProgress}
          </Title>
          <Text>{TEXTS.inProgressBody}</Text>
          {notice && (
            <Alert color="blue" variant="light" role="status">
              {notice}
            </Alert>
          )}
          {!readOnly && (
            <Group>
              <Button
                id="idv-check"
                size="md"
                mih={44}
                loading={busy === 'check'}
                onClick={() => void checkResult(false)}
              >
                {TEXTS.checkResult}
              </Button>
              {data.url && (
                <Button component="a" href={data.url} variant="default" size="md" mih={44}>
                  {TEXTS.resume}
                </Button>
              )}
              <Button
                id="idv-restart"
                variant="subtle"
                size="md"
                mih={44}
                loading={busy === 'start'}
                onClick={() => void start()}
              >
                Start again
              </Button>
            </Group>
          )}
        </Stack>
      );
    }
    if (data.status === 'passed') {
      return (
        <Stack gap="md">
          <Alert color="green" variant="light" title={TEXTS.passed} role="status">
            {TEXTS.passedBody}
          </Alert>
          <VerifiedDetails profile={profile} />
        </Stack>
      );
    }
    return (
      <Stack gap="md">
        <Alert color="orange" variant="light" title={TEXTS.failed} role="status">
          {profile.failure_reason && <Text mb="xs">{profile.failure_reason}</Text>}
          <Text>{TEXTS.failedNext}</Text>
        </Alert>
      </Stack>
    );
  })();

  const finished =
    load.state === 'ready' && (load.data.status === 'passed' || load.data.status === 'failed');
  return (
    <Stack gap="lg" maw={640} data-testid="portal-section-online-idv">
      {error && <ErrorSummary errors={[{ field: error.target, message: error.message }]} />}
      <Title order={1}>{TEXTS.title}</Title>
      {body}
      {finished && !readOnly && (
        <Group>
          <Button size="md" mih={44} loading={busy === 'continue'} onClick={() => void next()}>
            {TEXTS.continue}
          </Button>
        </Group>
      )}
    </Stack>
  );
}
