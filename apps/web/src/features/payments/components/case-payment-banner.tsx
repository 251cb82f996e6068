import { type CasePaymentOut, customerPaymentId } from '@kestrel/domain';
import { Alert, Anchor, Button, Group, Stack, Text } from '@mantine/core';
import { Link } from 'react-router';
import { href } from '../../../config/paths';
import { Can } from '../../../lib/rights';
import { useRetryPayment } from '../api';

/**
 * The case detail's 'Payment needed' banner: the case's charge was declined (or no card is
 * saved), so the subject's invitation waits. Says why, links to the payment and the saved
 * cards, and retries the payment (payments.add_payment). Nothing for a case paid, being
 * charged, or not charged.
 */
export function CasePaymentBanner({
  caseId,
  payment,
}: {
  caseId: number;
  payment: CasePaymentOut | null | undefined;
}) {
  const retry = useRetryPayment(caseId);
  if (payment?.state !== 'payment_needed') return null;
  return (
    <Alert color="red" title={payment.state_display} data-testid="case-payment-banner">
      <Stack gap="sm">
        <Text size="sm">
          {payment.reason ?? 'The payment for this case was not taken.'} The subject is not invited
          until {payment.amount_display} is paid.
        </Text>
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
