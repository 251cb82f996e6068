import type { PaymentMethodOut, SetupIntentOut } from '@kestrel/domain';
import { Alert, Anchor, Button, Group, Paper, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { z } from 'zod';
import { ApiFailure } from '../../../api/resource';
import { KitForm, TextField, useKitForm } from '../../../components/form-kit';
import { href } from '../../../config/paths';
import { notify } from '../../../lib/notify';
import { type CardValues, digitsOf, safeUrl, validateCard } from '../../payment-portal';
import { cardsChanged, recordMethod, startSetup } from '../api';

/** Where the simulator's (or the card issuer's) 3-D Secure page sends the browser back. */
const RETURN_PATH = '/payment-settings/add-payment-method';
const DECLINED = 'The card was not saved:';
const NOT_AUTHENTICATED =
  'The card was not saved: your bank did not confirm it. Try again, or use another card.';

/** The card as typed, checked as the payment page checks it (number, expiry, CVC, name). */
const cardSchema = z
  .object({ name: z.string(), number: z.string(), expiry: z.string(), cvc: z.string() })
  .superRefine((v, ctx) => {
    for (const [field, message] of Object.entries(validateCard(v, new Date()))) {
      ctx.addIssue({ code: 'custom', path: [field], message });
    }
  });

/** The provider's answer to a setup confirmation (Stripe's SetupIntent, what the page reads). */
const setupAnswer = z.object({
  id: z.string(),
  status: z.string(),
  next_action: z
    .object({ redirect_to_url: z.object({ url: z.string() }) })
    .nullable()
    .optional(),
  last_setup_error: z.object({ message: z.string() }).nullable().optional(),
});

/** Confirms the setup intent with the card (Stripe.js's confirmCardSetup, the brand's key). */
async function confirmSetup(setup: SetupIntentOut, card: CardValues) {
  const body = new URLSearchParams({
    key: setup.publishable_key,
    client_secret: setup.client_secret,
    'payment_method_data[type]': 'card',
    'payment_method_data[card][number]': digitsOf(card.number),
    'payment_method_data[card][exp_month]': card.expiry.trim().slice(0, 2),
    'payment_method_data[card][exp_year]': card.expiry.trim().slice(-2),
    'payment_method_data[card][cvc]': card.cvc.trim(),
    'payment_method_data[billing_details][name]': card.name.trim(),
    return_url: RETURN_PATH,
  });
  let res: Response;
  try {
    res = await fetch(
      `${setup.api_base}/v1/setup_intents/${encodeURIComponent(setup.id)}/confirm`,
      {
        method: 'POST',
        headers: {
          'content-type': 'application/x-www-form-urlencoded',
          accept: 'application/json',
        },
        body: body.toString(),
      },
    );
  } catch {
    throw new ApiFailure(503, {}, 'The payments service is not available. Try again later.');
  }
  const json: unknown = await res.json().catch(() => null);
  if (!res.ok) {
    const message =
      typeof json === 'object' && json !== null && 'error' in json
        ? String((json as { error: { message?: unknown } }).error.message ?? '')
        : '';
    throw new ApiFailure(res.status, {}, `${DECLINED} ${message || 'the card was refused.'}`);
  }
  const parsed = setupAnswer.safeParse(json);
  if (!parsed.success) throw new ApiFailure(502, {}, 'An error has occurred');
  return parsed.data;
}

/**
 * /payment-settings/add-payment-method: a card saved through the provider's setup flow. The
 * server makes a setup intent, the browser confirms it with the card; a 3-D Secure card goes to
 * the bank's (the simulator's) page and comes back here, then the card is recorded.
 */
export default function AddPaymentMethod() {
  const navigate = useNavigate();
  const client = useQueryClient();
  const [params] = useSearchParams();
  const [returnError, setReturnError] = useState<string | null>(null);
  const recording = useRef(false);
  const returned = params.get('setup_intent');
  const status = params.get('redirect_status');

  const saved = (m: PaymentMethodOut | null) => {
    if (!m) return;
    // the list read before the card was added would show it without the new card
    void cardsChanged(client);
    notify.success(`Saved ${m.label}`);
    navigate(href('payment-settings'));
  };

  // Back from the 3-D Secure page: record the card the setup intent saved, or say why not.
  // biome-ignore lint/correctness/useExhaustiveDependencies: once per return from the bank
  useEffect(() => {
    if (!returned || recording.current) return;
    recording.current = true;
    if (status !== 'succeeded') {
      setReturnError(NOT_AUTHENTICATED);
      return;
    }
    recordMethod(returned).then(saved, (e: unknown) =>
      setReturnError(e instanceof Error ? e.message : 'An error has occurred'),
    );
  }, [returned, status]);

  const kit = useKitForm<CardValues, CardValues, PaymentMethodOut | null>({
    schema: cardSchema,
    defaultValues: { name: '', number: '', expiry: '', cvc: '' },
    submit: async (card) => {
      setReturnError(null);
      const setup = await startSetup();
      const answer = await confirmSetup(setup, card);
      if (answer.status === 'succeeded') return recordMethod(setup.id);
      const next = answer.next_action?.redirect_to_url.url;
      const url = answer.status === 'requires_action' && next ? safeUrl(next) : null;
      if (url) {
        window.location.assign(url);
        return null;
      }
      throw new ApiFailure(
        402,
        {},
        `${DECLINED} ${answer.last_setup_error?.message ?? 'the card was refused.'} Try another card.`,
      );
    },
    onSaved: saved,
  });

  const waiting = Boolean(returned) && status === 'succeeded' && !returnError;
  return (
    <Stack gap="lg" maw={560}>
      <Anchor component={Link} to={href('payment-settings')} size="sm">
        ← Payment settings
      </Anchor>
      <Title order={1}>Add a card</Title>
      <Text size="sm">
        Cases are charged to your default card. Your card details go straight to the payments
        provider: Kestrel keeps only the brand, the last four digits and the expiry date.
      </Text>
      {returnError && (
        <Alert color="red" title="Card not saved" data-testid="card-error">
          {returnError}
        </Alert>
      )}
      {waiting ? (
        <Text>Saving your card…</Text>
      ) : (
        <Paper withBorder radius="lg" p="lg">
          <KitForm kit={kit} aria-label="Card details">
            <TextField
              control={kit.form.control}
              name="name"
              label="Name on card"
              autoComplete="cc-name"
            />
            <TextField
              control={kit.form.control}
              name="number"
              label="Card number"
              inputMode="numeric"
              autoComplete="cc-number"
            />
            <SimpleGrid cols={2}>
              <TextField
                control={kit.form.control}
                name="expiry"
                label="Expiry date"
                description="MM/YY"
                autoComplete="cc-exp"
              />
              <TextField
                control={kit.form.control}
                name="cvc"
                label="Security code"
                description="3 or 4 digits"
                inputMode="numeric"
                autoComplete="cc-csc"
              />
            </SimpleGrid>
            <Group>
              <Button type="submit" loading={kit.saving}>
                Save card
              </Button>
            </Group>
          </KitForm>
        </Paper>
      )}
    </Stack>
  );
}
