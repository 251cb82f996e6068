import { formatDate, PAYMENT_METHOD_MESSAGES } from '@kestrel/domain';
import { Badge, Button, Stack, Text } from '@mantine/core';
import { ApiFailure } from '../../../api/resource';
import { notify } from '../../../lib/notify';
import { useRights } from '../../../lib/rights';
import {
  errorLines,
  type Subscription,
  type SubscriptionBilling,
  useRetrySubscriptionPayment,
  useSubscriptionBilling,
} from '../api';

const COLOURS: Record<SubscriptionBilling['state'], string> = {
  invoiced: 'blue',
  paid: 'teal',
  pending: 'yellow',
  failed: 'red',
};

/**
 * A subscription's billing cycle ('Every year') and its last billing period: its state ('Invoiced', 'Paid', 'Payment pending',
 * 'Payment failed'), amount and date; a failed card charge shows why, that it is retried by
 * itself once a card is saved, and 'Retry payment' to staff with the payments permission (a new
 * attempt to the customer's default card).
 */
export function SubscriptionBillingCell({ subscription }: { subscription: Subscription }) {
  const { can } = useRights();
  const billing = useSubscriptionBilling(subscription.id);
  const retry = useRetrySubscriptionPayment();
  const b = billing.data;
  const cycle = <Text size="sm">{subscription.cycle.billing_text}</Text>;
  if (billing.isPending) return cycle;
  if (billing.isError)
    return (
      <Stack gap={4} align="flex-start">
        {cycle}
        <Text size="xs" c="dimmed">
          Billing could not be loaded
        </Text>
      </Stack>
    );
  if (!b)
    return (
      <Stack gap={4} align="flex-start">
        {cycle}
        <Text size="xs" c="dimmed">
          Not billed yet
        </Text>
      </Stack>
    );
  const onRetry = async () => {
    try {
      const out = await retry.mutateAsync(b);
      if (out.state === 'failed') notify.error(out.reason ?? out.state_display);
      else
        notify.success(out.state === 'paid' ? `Paid ${out.amount_display}` : 'Payment in progress');
    } catch (error) {
      notify.error(
        error instanceof ApiFailure && error.status === 400
          ? errorLines(error.body).join(' ')
          : 'The payment could not be retried.',
      );
    }
  };
  return (
    <Stack gap={4} align="flex-start">
      {cycle}
      <Badge variant="light" color={COLOURS[b.state]} style={{ minWidth: 'max-content' }}>
        {b.state_display}
      </Badge>
      <Text size="sm">{`${b.amount_display}, ${formatDate(b.period)}`}</Text>
      {b.state === 'failed' && (
        <>
          {b.reason && (
            <Text size="xs" c="dimmed" maw={260}>
              {b.reason}
            </Text>
          )}
          <Text size="xs" c="dimmed" maw={260}>
            {PAYMENT_METHOD_MESSAGES.retriedWhenCardSaved}
          </Text>
          {can('payments.add_payment') && (
            <Button
              size="compact-sm"
              variant="light"
              color="red"
              loading={retry.isPending}
              aria-label={`Retry payment for ${subscription.subject.first_name} ${subscription.subject.last_name}: ${subscription.cycle.name}`}
              onClick={() => void onRetry()}
            >
              Retry payment
            </Button>
          )}
        </>
      )}
    </Stack>
  );
}
