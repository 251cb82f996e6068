import { subscriptionTransition } from '@kestrel/domain';
import { Alert, Button, Group, Modal, Stack, Text } from '@mantine/core';
import { useState } from 'react';
import { ApiFailure } from '../../../api/resource';
import { notify } from '../../../lib/notify';
import {
  errorLines,
  type Subscription,
  type SubscriptionAction,
  useSubscriptionAction,
} from '../api';

const WORDING: Record<SubscriptionAction, { verb: string; text: string; done: string }> = {
  pause: {
    verb: 'Pause',
    text: 'No new case opens and nothing is billed while it is paused. It keeps its dates.',
    done: 'Subscription paused',
  },
  resume: {
    verb: 'Resume',
    text: 'Cases open again on its schedule; a due date that passed while paused is skipped.',
    done: 'Subscription resumed',
  },
  end: {
    verb: 'End',
    text: 'No further case opens and billing stops for good. An ended subscription cannot resume.',
    done: 'Subscription ended',
  },
};

const ACTIONS: readonly SubscriptionAction[] = ['pause', 'resume', 'end'];

/** Who and what a subscription is, for a dialog title: 'Sam Subject: Update service'. */
function subscriptionName(s: Subscription): string {
  return `${s.subject.first_name} ${s.subject.last_name}: ${s.cycle.name}`;
}

/**
 * The actions the subscription's state allows (pause, resume, end), each after a confirmation;
 * the server's 400 stays in the dialog.
 */
export function SubscriptionActions({ subscription }: { subscription: Subscription }) {
  const [action, setAction] = useState<SubscriptionAction | null>(null);
  const [problems, setProblems] = useState<string[]>([]);
  const run = useSubscriptionAction();
  const allowed = ACTIONS.filter((a) => subscriptionTransition(subscription.state, a) !== null);
  if (allowed.length === 0) return null;
  const close = () => {
    setAction(null);
    setProblems([]);
  };
  const confirm = async (a: SubscriptionAction) => {
    setProblems([]);
    try {
      await run.mutateAsync({ id: subscription.id, action: a });
      notify.success(WORDING[a].done);
      close();
    } catch (error) {
      setProblems(
        error instanceof ApiFailure && error.status === 400
          ? errorLines(error.body)
          : ['Something went wrong. Try again.'],
      );
    }
  };
  const name = subscriptionName(subscription);
  return (
    <>
      <Group gap="xs" wrap="nowrap">
        {allowed.map((a) => (
          <Button
            key={a}
            variant="subtle"
            color={a === 'end' ? 'red' : undefined}
            size="compact-sm"
            aria-label={`${WORDING[a].verb} ${name}`}
            onClick={() => setAction(a)}
          >
            {WORDING[a].verb}
          </Button>
        ))}
      </Group>
      <Modal
        opened={action !== null}
        onClose={close}
        title={action ? `${WORDING[action].verb} the subscription?` : ''}
      >
        {action && (
          <Stack gap="md">
            <Text size="sm" fw={600}>
              {name}
            </Text>
            <Text size="sm">{WORDING[action].text}</Text>
            {problems.length > 0 && (
              <Alert color="red" role="alert" title="Not changed">
                {problems.map((p) => (
                  <Text key={p} size="sm">
                    {p}
                  </Text>
                ))}
              </Alert>
            )}
            <Group justify="flex-end">
              <Button variant="default" onClick={close}>
                Cancel
              </Button>
              <Button
                color={action === 'end' ? 'red' : undefined}
                loading={run.isPending}
                onClick={() => void confirm(action)}
              >
                {WORDING[action].verb}
              </Button>
            </Group>
          </Stack>
        )}
      </Modal>
    </>
  );
}
