import { MESSAGES } from '@kestrel/domain';
import { Alert, Button, Checkbox, Group, Stack } from '@mantine/core';
import { type ReactNode, useCallback, useState } from 'react';

/** The section's error state (point 8: no message text): a retry, and what was typed stays. */
export function SectionError({ onRetry, label }: { onRetry: () => void; label: string }) {
  return (
    <Alert
      color="red"
      variant="light"
      data-testid="section-error"
      role="alert"
      aria-label={`${label}: error`}
      styles={{ message: { display: 'flex', justifyContent: 'flex-end' } }}
    >
      <Button size="xs" variant="white" color="red" onClick={onRetry}>
        Retry
      </Button>
    </Alert>
  );
}

export const CONSENT_TEXTS = [
  'I confirm that the details entered are true and correct to the best of my knowledge.',
  'I confirm that the subject has agreed to these details being changed.',
] as const;

/** The two consent confirmations a change reveals: 'Please confirm' until each is ticked. */
export function useConsents() {
  const [ticked, setTicked] = useState<[boolean, boolean]>([false, false]);
  const reset = useCallback(() => setTicked([false, false]), []);
  return {
    ticked,
    given: ticked[0] && ticked[1],
    reset,
    set: (i: 0 | 1, value: boolean) => setTicked((t) => (i === 0 ? [value, t[1]] : [t[0], value])),
  };
}

export function Consents({ consents }: { consents: ReturnType<typeof useConsents> }) {
  return (
    <Stack gap="xs" data-testid="consents">
      {CONSENT_TEXTS.map((label, i) => {
        const index = i === 0 ? 0 : 1;
        return (
          <Checkbox
            key={label}
            label={label}
            checked={consents.ticked[index]}
            onChange={(e) => consents.set(index, e.currentTarget.checked)}
            error={consents.ticked[index] ? undefined : MESSAGES.pleaseConfirm}
          />
        );
      })}
    </Stack>
  );
}

/** The Save row: disabled while the section is invalid or the consents are not given. */
export function SaveRow({
  disabled,
  saving,
  children,
}: {
  disabled: boolean;
  saving: boolean;
  children?: ReactNode;
}) {
  return (
    <Group justify="flex-end" gap="sm">
      {children}
      <Button type="submit" disabled={disabled} loading={saving}>
        Save
      </Button>
    </Group>
  );
}
