import {
  PAYMENT_METHOD_MESSAGES,
  type PaymentMethodOut,
  type PaymentSettingsOut,
  type PaymentSettingsUpdate,
  paymentSettingsUpdate,
} from '@kestrel/domain';
import {
  Alert,
  Anchor,
  Badge,
  Button,
  Group,
  Modal,
  Paper,
  Skeleton,
  Stack,
  Text,
  Title,
} from '@mantine/core';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Link } from 'react-router';
import type { z } from 'zod';
import { EmailField, KitForm, useKitForm } from '../../../components/form-kit';
import { href } from '../../../config/paths';
import { notify } from '../../../lib/notify';
import { Can, useRights } from '../../../lib/rights';
import { paymentMethodsQuery, paymentSettingsQuery, saveSettings, useMethodAction } from '../api';

/** One saved card: brand, last four digits, expiry, the default badge and its actions. */
function Card({ method }: { method: PaymentMethodOut }) {
  const action = useMethodAction();
  const [confirming, setConfirming] = useState(false);
  return (
    <Paper withBorder radius="md" p="md" data-testid="payment-method">
      <Group justify="space-between" align="center" wrap="wrap" gap="sm">
        <Stack gap={2}>
          <Group gap="xs">
            <Text fw={700}>{method.brand_display}</Text>
            <Text>ending {method.last4}</Text>
            {method.is_default && (
              <Badge color="teal" variant="light">
                Default
              </Badge>
            )}
            {method.expired && (
              <Badge color="red" variant="light">
                Expired
              </Badge>
            )}
          </Group>
          <Text size="sm" c="dimmed">
            Expires {method.expiry_display}
          </Text>
        </Stack>
        <Group gap="xs">
          {!method.is_default && (
            <Can permission="payments.change_payment">
              <Button
                variant="default"
                size="sm"
                loading={action.isPending}
                onClick={() => action.mutate({ action: 'default', method })}
                aria-label={`Make default: ${method.label}`}
              >
                Make default
              </Button>
            </Can>
          )}
          <Can permission="payments.delete_payment">
            <Button
              variant="light"
              color="red"
              size="sm"
              onClick={() => setConfirming(true)}
              aria-label={`Remove ${method.label}`}
            >
              Remove
            </Button>
          </Can>
        </Group>
      </Group>
      <Modal
        opened={confirming}
        onClose={() => setConfirming(false)}
        title={`Remove ${method.label}?`}
      >
        <Stack>
          <Text size="sm">
            {method.is_default
              ? 'This is the default card: cases are charged to it. Without a saved card new cases wait for payment.'
              : 'The card is removed from your organisation. You can add it again later.'}
          </Text>
          <Group justify="flex-end">
            <Button variant="default" onClick={() => setConfirming(false)}>
              Keep the card
            </Button>
            <Button
              color="red"
              loading={action.isPending}
              onClick={() =>
                action.mutate(
                  { action: 'remove', method },
                  { onSettled: () => setConfirming(false) },
                )
              }
            >
              Remove card
            </Button>
          </Group>
        </Stack>
      </Modal>
    </Paper>
  );
}

type SettingsValues = z.input<typeof paymentSettingsUpdate>;

/** The billing email (where receipts go), saved with payments.change_payment. */
function BillingEmail({ settings }: { settings: PaymentSettingsOut }) {
  const client = useQueryClient();
  const { can } = useRights();
  const kit = useKitForm<SettingsValues, PaymentSettingsUpdate, PaymentSettingsOut>({
    schema: paymentSettingsUpdate,
    defaultValues: { billing_email: settings.billing_email },
    submit: saveSettings,
    onSaved: (saved) => {
      client.setQueryData(paymentSettingsQuery().queryKey, saved);
      notify.success('Successfully updated payment settings');
    },
  });
  const editable = can('payments.change_payment');
  return (
    <KitForm kit={kit} aria-label="Billing">
      <EmailField
        control={kit.form.control}
        name="billing_email"
        label="Billing email"
        description="Where receipts for your organisation's payments are sent."
        readOnly={!editable}
      />
      {editable && (
        <Group>
          <Button type="submit" loading={kit.saving}>
            Save billing email
          </Button>
        </Group>
      )}
    </KitForm>
  );
}

/** /payment-settings: saved cards (default, remove), the billing email, a link to add a card. */
export default function PaymentSettings() {
  const methods = useQuery(paymentMethodsQuery());
  const settings = useQuery(paymentSettingsQuery());
  return (
    <Stack gap="lg">
      <Group justify="space-between">
        <Title order={1}>Payment settings</Title>
        <Can permission="payments.add_payment">
          <Button component={Link} to={href('add-payment-method')}>
            Add a card
          </Button>
        </Can>
      </Group>
      {settings.data?.invoiced && (
        <Alert color="blue" title="Invoiced">
          Your organisation is invoiced for its checks: cases are not charged to a card.
        </Alert>
      )}
      <Paper withBorder radius="lg" p="lg">
        <Title order={2} size="h4" mb="xs">
          Saved cards
        </Title>
        <Text size="sm" c="dimmed">
          Each new case is charged to the default card, at the price in your pricebook.
        </Text>
        <Text size="sm" c="dimmed" mb="md" data-testid="automatic-retry">
          {PAYMENT_METHOD_MESSAGES.automaticRetry}
        </Text>
        {methods.isPending ? (
          <Skeleton h={72} radius="md" />
        ) : methods.isError ? (
          <Alert color="red">{methods.error.message}</Alert>
        ) : methods.data.length === 0 ? (
          <Text size="sm" data-testid="no-payment-methods">
            No card is saved. Until one is, new cases wait for payment before the subject is
            invited.
          </Text>
        ) : (
          <Stack gap="sm">
            {methods.data.map((m) => (
              <Card key={m.id} method={m} />
            ))}
          </Stack>
        )}
      </Paper>
      <Paper withBorder radius="lg" p="lg">
        <Title order={2} size="h4" mb="md">
          Billing
        </Title>
        {settings.data ? (
          <BillingEmail settings={settings.data} />
        ) : settings.isError ? (
          <Alert color="red">{settings.error.message}</Alert>
        ) : (
          <Skeleton h={60} radius="md" />
        )}
      </Paper>
      <Text size="sm">
        <Anchor component={Link} to={href('payments')} inherit>
          See your payments
        </Anchor>
      </Text>
    </Stack>
  );
}
