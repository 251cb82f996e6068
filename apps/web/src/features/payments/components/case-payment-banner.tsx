import { type CasePaymentOut, customerPaymentId, PAYMENT_METHOD_MESSAGES } from '@kestrel/domain';
import { Alert, Anchor, Button, Group, Loader, Stack, Text } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { Link } from 'react-router';
import { cases } from '../../../api/cases';
import { href } from '../../../config/paths';
import { Can } from '../../../lib/rights';
import { useRetryPayment } from '../api';

/**
 * The case detail's 'Payment needed' banner: the case's charge was declined (or no card is
 * saved), so the subject's invitation waits. Says why, that saving a card retries it by itself,
 * links to the payment and the saved cards, and retries the payment (payments.add_payment). While a charge is being taken (a
 * retry, or the case's first charge) it says so and reads the case again every
 * PENDING_POLL_MS until the provider has answered, so a decline shows without a reload.
 * Nothing for a case paid or not charged.
 */
/** How often a case whose charge is being taken is read again. */
export const PENDING_POLL_MS = 1500;

export function CasePaymentBanner({
  caseId,
  payment,
}: {
  caseId: number;
  payment: CasePaymentOut | null | undefined;
}) {
  const retry = useRetryPayment(caseId);
  const client = useQueryClient();
  const pending = payment?.state === 'pending';
  useEffect(() => {
    if (!pending) return;
    const timer = setInterval(() => {
      void client.invalidateQueries({ queryKey: cases.keys.item(caseId) });
    }, PENDING_POLL_MS);
    return () => clearInterval(timer);
  }, [pending, caseId, client]);
  if (pending) {
    return (
      <Alert color="blue" title={payment.state_display} data-testid="case-payment-pending">
        <Group gap="sm" wrap="nowrap">
          <Loader size="xs" aria-hidden />
          <Text size="sm">
            Taking {payment.amount_display}
            {payment.card ? ` from ${payment.card}` : ''}. The subject is invited once it is paid.
          </Text>
        </Group>
      </Alert>
    );
  }
  if (payment?.state !== 'payment_needed') return null;
  return (
    <Alert color="red" title={payment.state_display} data-testid="case-payment-banner">
      <Stack gap="sm">
        <Text size="sm">
          {payment.reason ?? 'The payment for this case was not taken.'} The subject is not invited
          until {payment.amount_display} is paid.
        </Text>
        <Text size="sm">{PAYMENT_METHOD_MESSAGES.retriedWhenCardSaved}</Text>
        <Group gap="sm">
          <Can permission="payments.add_payment">
            <Button size="sm" color="red" onClick={() => retry.mutate()} loading={retry.isPending}>
              Retry payment
            </Button>
          </Can>
          <Anchor
            component={Link}
            size="sm"
            to={href('payment', { id: customerPaymentId('product', payment.product_payment) })}
          >
            See the payment
          </Anchor>
          <Anchor component={Link} size="sm" to={href('payment-settings')}>
            Payment settings
          </Anchor>
        </Group>
      </Stack>
    </Alert>
  );
}
