import { TOP_UP_DEMANDED_AGAIN } from '@kestrel/domain';
import { Alert, Button, Group, Stack, Text } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { actionErrorMessage, actionSuccessMessage, failureMessage } from '../../api/messages';
import { notify } from '../../lib/notify';
import type { PanelActivity } from './panel-kit';
import { retryActivity } from './results-api';

/** The state an activity is left in when its provider failed or timed out. */
export const ERROR_INITIATING = 'ca-error-initiating';

const ITEM = 'case activity';

/** The provider's last error kept in the activity's processing data, if any. */
export function lastErrorOf(activity: PanelActivity): string | null {
  const value = activity.processing_data?.last_error;
  return typeof value === 'string' && value.trim() ? value : null;
}

/**
 * Why a check waits for a decision, when the engine said so in its own words (a provider's own
 * error text is for operations only: RetryActivity): shown to customer staff and operations.
 */
export function DecisionReason({ activity }: { activity: PanelActivity }) {
  const reason = lastErrorOf(activity);
  if (activity.state !== 'ca-pending-activity-decision' || reason !== TOP_UP_DEMANDED_AGAIN) {
    return null;
  }
  return (
    <Alert color="yellow" title="A decision is needed" data-testid="activity-decision-reason">
      {reason}
    </Alert>
  );
}

/**
 * The operations retry of an activity whose start failed (issue 17: a provider failure leaves
 * it in ca-error-initiating, with automatic retries and this button for ops). Shows the last
 * error; a retry puts the activity back in progress and refetches what the page shows.
 */
export function RetryActivity({ activity }: { activity: PanelActivity }) {
  const client = useQueryClient();
  const [busy, setBusy] = useState(false);
  if (activity.state !== ERROR_INITIATING) return null;
  const lastError = lastErrorOf(activity);
  const run = async () => {
    setBusy(true);
    const r = await retryActivity(activity.id);
    if (r.ok) {
      notify.success(actionSuccessMessage('update', ITEM));
      // the page's activity (and its state badge) come from its queries: read them again
      await client.invalidateQueries();
    } else {
      notify.error(
        failureMessage(r, { action: 'update', name: ITEM, showBackendErrors: true }) ??
          actionErrorMessage('update', ITEM),
      );
    }
    setBusy(false);
  };
  return (
    <Alert color="red" title="This check could not be started" data-testid="activity-retry">
      <Stack gap="xs">
        <Text size="sm">
          The provider failed or did not answer. It is retried automatically; you can retry now.
        </Text>
        {lastError && (
          <Text size="sm" data-testid="activity-last-error" style={{ whiteSpace: 'pre-wrap' }}>
            Last error: {lastError}
          </Text>
        )}
        <Group>
          <Button
            h={44}
            color="red"
            onClick={run}
            loading={busy}
            data-testid="activity-retry-button"
          >
            Retry
          </Button>
        </Group>
      </Stack>
    </Alert>
  );
}
