import {
  type ConfirmAnswer,
  confirmAnswer,
  PAYMENT_TEXTS,
  type PaymentPortalOut,
} from '@kestrel/domain';
import {
  Alert,
  Anchor,
  Button,
  Group,
  List,
  Loader,
  Paper,
  Stack,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { Link, useLocation, useParams } from 'react-router';
import { request } from '../../api/client';
import { useSubjectProfile } from '../../lib/session/profile';
import {
  CARD_FIELDS,
  type CardErrors,
  type CardField,
  type CardValues,
  digitsOf,
  safeUrl,
  validateCard,
} from './card-form';
import { CONTINUE, continueTo, portalTexts, readLink } from './continue-link';

/** The browser's session storage, or null where it is refused. */
function sessionStore(): Storage | null {
  try {
    return window.sessionStorage;
  } catch {
    return null;
  }
}

const FIELD_ID: Record<CardField, string> = {
  name: 'card-name',
  number: 'card-number',
  expiry: 'card-expiry',
  cvc: 'card-cvc',
};

type Load =
  | { state: 'loading' }
  | { state: 'missing' }
  | { state: 'failed' }
  | { state: 'ready'; portal: PaymentPortalOut };

async function loadPortal(id: string): Promise<Load> {
  const r = await request<PaymentPortalOut>(
    'GET',
    `/api/public/payment-portal/${encodeURIComponent(id)}/`,
  );
  if (r.ok) return { state: 'ready', portal: r.data };
  return r.status === 404 ? { state: 'missing' } : { state: 'failed' };
}

/** How long the page waits for the provider's intent (made by a job) before it gives up. */
export const PREPARE_SECONDS = 30;

/** How long the browser waits for the provider's answer about a 3-D Secure challenge left. */
export const CHALLENGE_LOOK_MS = 5000;

/**
 * Asks the provider how the intent stands (Stripe.js's retrievePaymentIntent: the client secret
 * and the brand's publishable key): where to continue a 3-D Secure challenge left unfinished (the
 * back button), else null. A failed look is no challenge: the form shows and the confirm answers;
 * so is a provider that does not answer within CHALLENGE_LOOK_MS.
 */
async function pendingChallenge(
  p: Pick<
    PaymentPortalOut,
    'api_base' | 'provider_intent_id' | 'client_secret' | 'publishable_key'
  >,
): Promise<string | null> {
  const query = new URLSearchParams({
    client_secret: p.client_secret ?? '',
    key: p.publishable_key,
  });
  try {
    const res = await fetch(
      `${p.api_base}/v1/payment_intents/${encodeURIComponent(p.provider_intent_id ?? '')}?${query}`,
      {
        headers: { accept: 'application/json' },
        cache: 'no-store',
        signal: AbortSignal.timeout(CHALLENGE_LOOK_MS),
      },
    );
    if (!res.ok) return null;
    const parsed = confirmAnswer.safeParse(await res.json().catch(() => null));
    const action = parsed.success ? parsed.data.next_action : null;
    return parsed.success && parsed.data.status === 'requires_action' && action
      ? safeUrl(action.redirect_to_url.url)
      : null;
  } catch {
    return null;
  }
}

/** Confirms the intent with the provider (Stripe's confirm, with the brand's publishable key). */
async function confirmPayment(
  p: PaymentPortalOut,
  card: CardValues,
): Promise<{ ok: true; answer: ConfirmAnswer } | { ok: false; message: string }> {
  const body = new URLSearchParams({
    key: p.publishable_key,
    client_secret: p.client_secret ?? '',
    'payment_method_data[type]': 'card',
    'payment_method_data[card][number]': digitsOf(card.number),
    'payment_method_data[card][exp_month]': card.expiry.slice(0, 2),
    'payment_method_data[card][exp_year]': card.expiry.slice(-2),
    'payment_method_data[card][cvc]': card.cvc.trim(),
    'payment_method_data[billing_details][name]': card.name.trim(),
    return_url: `/payment-portal/${p.id}`,
  });
  try {
    const res = await fetch(
      `${p.api_base}/v1/payment_intents/${encodeURIComponent(p.provider_intent_id ?? '')}/confirm`,
      {
        method: 'POST',
        headers: {
          'content-type': 'application/x-www-form-urlencoded',
          accept: 'application/json',
        },
        body: body.toString(),
      },
    );
    const json: unknown = await res.json().catch(() => null);
    if (!res.ok) {
      const message =
        typeof json === 'object' && json !== null && 'error' in json
          ? String((json as { error: { message?: unknown } }).error.message ?? '')
          : '';
      return { ok: false, message: message || PAYMENT_TEXTS.error };
    }
    const parsed = confirmAnswer.safeParse(json);
    return parsed.success
      ? { ok: true, answer: parsed.data }
      : { ok: false, message: PAYMENT_TEXTS.error };
  } catch {
    return { ok: false, message: PAYMENT_TEXTS.error };
  }
}

const EMPTY: CardValues = { name: '', number: '', expiry: '', cvc: '' };

export default function PaymentPortalPage() {
  const { id = '' } = useParams();
  const { search } = useLocation();
  const link = useMemo(() => readLink(search, id, sessionStore()), [search, id]);
  const texts = portalTexts(link.licence);
  const onTo = continueTo(link, useSubjectProfile() !== null);
  const [load, setLoad] = useState<Load>({ state: 'loading' });
  const [values, setValues] = useState<CardValues>(EMPTY);
  const [errors, setErrors] = useState<CardErrors>({});
  const [submitError, setSubmitError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  // Seconds waited for the provider's intent; what the provider said of the intent's challenge.
  const [waited, setWaited] = useState(0);
  const [checked, setChecked] = useState<{ intent: string; url: string | null } | null>(null);
  const summary = useRef<HTMLDivElement>(null);
  const heading = useRef<HTMLHeadingElement>(null);

  const refresh = useCallback(async () => setLoad(await loadPortal(id)), [id]);
  useEffect(() => {
    void refresh();
  }, [refresh]);
  // A look while waiting: a failure (a 5xx, the network) is a blip, and the page asks again;
  // a missing payment (404) or any answer is shown.
  const poll = useCallback(async () => {
    const next = await loadPortal(id);
    if (next.state !== 'failed') setLoad(next);
  }, [id]);

  const portal = load.state === 'ready' ? load.portal : null;
  const awaiting = portal?.outcome === 'awaiting';
  // The provider's intent is made by a job: until it is, ask again each second, for a while. An
  // intent the provider refused (its job recorded the refusal in last_error) will not be made.
  const refused = awaiting && !portal?.provider_intent_id && portal?.last_error != null;
  const preparing = awaiting && !portal?.provider_intent_id && !refused;
  useEffect(() => {
    if (!preparing || waited >= PREPARE_SECONDS) return;
    let current = true;
    const timer = setTimeout(async () => {
      await poll();
      if (current) setWaited((w) => w + 1);
    }, 1000);
    return () => {
      current = false;
      clearTimeout(timer);
    };
  }, [preparing, waited, poll]);
  // Waited too long: ask again from the start (a minute on, the server enqueues the job again).
  const tryAgain = () => {
    setWaited(0);
    void poll();
  };

  // Made: ask the provider (from the browser) whether a 3-D Secure challenge is left unfinished.
  const intentId = awaiting ? (portal?.provider_intent_id ?? null) : null;
  const secret = portal?.client_secret ?? null;
  const apiBase = portal?.api_base ?? '';
  const key = portal?.publishable_key ?? '';
  useEffect(() => {
    if (!intentId) return;
    if (!secret) {
      setChecked({ intent: intentId, url: null });
      return;
    }
    let current = true;
    void pendingChallenge({
      provider_intent_id: intentId,
      client_secret: secret,
      api_base: apiBase,
      publishable_key: key,
    }).then((url) => {
      if (current) setChecked({ intent: intentId, url });
    });
    return () => {
      current = false;
    };
  }, [intentId, secret, apiBase, key]);

  const shown = Object.keys(errors).length > 0 || submitError !== null;
  useEffect(() => {
    if (shown) summary.current?.focus();
  }, [shown]);

  // What the provider said of this intent (nothing yet: still asking).
  const known = portal && checked?.intent === portal.provider_intent_id ? checked : null;
  const challengeUrl = known?.url ?? null;
  // An awaited payment: its provider intent being made (or the provider asked), refused or made
  // too late, a 3-D Secure challenge to continue, or the card form.
  const step = !awaiting
    ? null
    : !portal?.provider_intent_id
      ? !refused && waited < PREPARE_SECONDS
        ? 'preparing'
        : 'unavailable'
      : !known
        ? 'preparing'
        : challengeUrl
          ? 'challenge'
          : 'form';

  // The form appearing after "Preparing…" while the provider's intent was made: focus moves to
  // its heading (once), so that a screen reader's user, told the page was preparing, is told what
  // came instead. Not after the provider was only asked about a challenge (every page load).
  const waitedForForm = useRef(false);
  const formFocused = useRef(false);
  useEffect(() => {
    if (step === 'preparing' && !portal?.provider_intent_id) waitedForForm.current = true;
    if (step === 'form' && waitedForForm.current && !formFocused.current) {
      formFocused.current = true;
      heading.current?.focus();
    }
  }, [step, portal?.provider_intent_id]);

  if (load.state === 'loading') {
    return (
      <Group justify="center" p="xl">
        <Loader role="status" aria-label="Loading" />
      </Group>
    );
  }
  if (load.state !== 'ready') {
    return (
      <Stack gap="md">
        <Title order={1}>{texts.title}</Title>
        <Alert color="red" variant="light" role="alert">
          {load.state === 'missing' ? texts.notFound : texts.error}
        </Alert>
      </Stack>
    );
  }
  const p = load.portal;

  const onSubmit = async (e: React.FormEvent) => {
    e.preventDefault();
    setSubmitError(null);
    const found = validateCard(values, new Date());
    setErrors(found);
    if (Object.keys(found).length > 0) return;
    setBusy(true);
    const r = await confirmPayment(p, values);
    if (!r.ok) {
      setBusy(false);
      setSubmitError(r.message);
      return;
    }
    const action = r.answer.next_action;
    if (r.answer.status === 'requires_action' && action) {
      // The 3-D Secure challenge (the card issuer's page); it returns here when done. Only to a
      // page the provider may send the browser to (as the challenge link left unfinished).
      const url = safeUrl(action.redirect_to_url.url);
      if (!url) {
        setBusy(false);
        setSubmitError(texts.error);
        return;
      }
      window.location.assign(url);
      return;
    }
    // The provider's webhook settles the payment: wait until the server knows.
    for (let i = 0; i < 10; i++) {
      const next = await loadPortal(id);
      if (next.state !== 'ready' || next.portal.outcome !== 'awaiting' || i === 9) {
        setLoad(next);
        break;
      }
      await new Promise((resolve) => setTimeout(resolve, 1000));
    }
    setBusy(false);
  };

  const set = (field: CardField) => (e: React.ChangeEvent<HTMLInputElement>) => {
    // Read now: the event's currentTarget is gone by the time the updater runs.
    const value = e.currentTarget.value;
    setValues((v) => ({ ...v, [field]: value }));
  };

  return (
    <Stack gap="lg">
      <Stack gap={6}>
        <Title order={1} fz={{ base: 26, sm: 30 }}>
          {texts.title}
        </Title>
        <Text c="dimmed">{p.brand_name}</Text>
      </Stack>

      <Paper withBorder p="md" radius="md" component="section" aria-labelledby="paying-for">
        <Stack gap={4}>
          <Text id="paying-for" fw={650}>
            What you are paying for
          </Text>
          <Text>{p.description}</Text>
          <Text fz={28} fw={750} data-testid="amount">
            {p.amount_display}
          </Text>
        </Stack>
      </Paper>

      {p.outcome === 'paid' && (
        <Alert color="teal" variant="light" role="status" title={texts.paid}>
          {texts.paidBody}
        </Alert>
      )}
      {p.outcome === 'declined' && (
        <Alert color="red" variant="light" role="alert" title={texts.declined}>
          <Stack gap={4}>
            {p.last_error && <Text size="sm">{p.last_error}</Text>}
            <Text size="sm">{texts.declinedBody}</Text>
          </Stack>
        </Alert>
      )}
      {(p.outcome === 'paid' || p.outcome === 'declined') && onTo && (
        <Button component={Link} to={onTo} size="lg" fullWidth data-testid="payment-continue">
          {CONTINUE}
        </Button>
      )}

      {step === 'preparing' && (
        <Paper withBorder p="md" radius="md" data-testid="preparing">
          <Group gap="sm" wrap="nowrap" role="status" aria-live="polite">
            <Loader size="sm" aria-hidden />
            <Text>{texts.preparing}</Text>
          </Group>
        </Paper>
      )}
      {step === 'unavailable' && (
        <Alert color="red" variant="light" role="alert">
          {texts.unavailable}
        </Alert>
      )}
      {step === 'unavailable' && !refused && (
        <Button variant="default" size="lg" onClick={tryAgain}>
          Try again
        </Button>
      )}

      {step === 'challenge' && challengeUrl && (
        <Alert color="blue" variant="light" role="status" title={texts.challengePending}>
          <Button
            component="a"
            href={challengeUrl}
            size="lg"
            mt="xs"
            fullWidth
            h="auto"
            mih={50}
            py="xs"
            styles={{ label: { whiteSpace: 'normal', textAlign: 'center', lineHeight: 1.3 } }}
          >
            {texts.challengeContinue}
          </Button>
        </Alert>
      )}

      {step === 'form' && (
        <form onSubmit={onSubmit} noValidate aria-labelledby="card-heading">
          <Stack gap="md">
            {shown && (
              <Alert
                ref={summary}
                tabIndex={-1}
                color="red"
                variant="light"
                role="alert"
                title="There is a problem"
              >
                <List size="sm">
                  {submitError && (
                    <List.Item>
                      <Anchor href={`#${FIELD_ID.number}`} c="red.9" fz="sm">
                        {submitError}
                      </Anchor>
                    </List.Item>
                  )}
                  {CARD_FIELDS.filter((f) => errors[f]).map((f) => (
                    <List.Item key={f}>
                      <Anchor href={`#${FIELD_ID[f]}`} c="red.9" fz="sm">
                        {errors[f]}
                      </Anchor>
                    </List.Item>
                  ))}
                </List>
              </Alert>
            )}
            <Title
              order={2}
              fz="lg"
              id="card-heading"
              ref={heading}
              tabIndex={-1}
              // focused by the page, not the user: no focus ring on a heading
              style={{ outline: 'none' }}
            >
              Card details
            </Title>
            <TextInput
              id={FIELD_ID.name}
              label="Name on card"
              autoComplete="cc-name"
              size="lg"
              value={values.name}
              onChange={set('name')}
              error={errors.name}
            />
            <TextInput
              id={FIELD_ID.number}
              label="Card number"
              inputMode="numeric"
              autoComplete="cc-number"
              size="lg"
              value={values.number}
              onChange={set('number')}
              error={errors.number ?? (submitError ? submitError : undefined)}
            />
            <Group grow align="flex-start">
              <TextInput
                id={FIELD_ID.expiry}
                label="Expiry date"
                description="MM/YY"
                inputMode="numeric"
                autoComplete="cc-exp"
                size="lg"
                value={values.expiry}
                onChange={set('expiry')}
                error={errors.expiry}
              />
              <TextInput
                id={FIELD_ID.cvc}
                label="Security code"
                description="3 or 4 digits"
                inputMode="numeric"
                autoComplete="cc-csc"
                size="lg"
                value={values.cvc}
                onChange={set('cvc')}
                error={errors.cvc}
              />
            </Group>
            <Button type="submit" size="lg" fullWidth loading={busy}>
              Pay {p.amount_display}
            </Button>
            {p.provider === 'simulator' && (
              <Text size="sm" c="dimmed">
                Test payments: no real card is charged.
              </Text>
            )}
          </Stack>
        </form>
      )}
    </Stack>
  );
}
