import { MESSAGES } from '@kestrel/domain';
import { Button, Group, PinInput, Stack, Text } from '@mantine/core';
import { useState } from 'react';
import type { ApiResult } from '../../api/client';
import { backendErrorLines, MESSAGES_UI } from '../../api/messages';

/** A 6-digit authenticator code box with the server's message under it. */
export function TotpCodeForm({
  submitLabel,
  onSubmit,
  danger,
}: {
  submitLabel: string;
  onSubmit: (code: string) => Promise<ApiResult<unknown>>;
  danger?: boolean;
}) {
  const [code, setCode] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const submit = async (event: React.FormEvent) => {
    event.preventDefault();
    if (!/^\d{6}$/.test(code)) {
      setError(code ? MESSAGES.invalidFormat : MESSAGES.required);
      return;
    }
    setBusy(true);
    setError(null);
    const r = await onSubmit(code);
    setBusy(false);
    if (!r.ok) {
      const totp = r.data.totp;
      setError(
        Array.isArray(totp)
          ? totp.join(' ')
          : backendErrorLines(r.data).join('\n') || MESSAGES_UI.defaultError,
      );
    }
  };
  return (
    <form onSubmit={submit} noValidate>
      <Stack gap="sm">
        <Text fw={600} size="sm">
          Authenticator code
        </Text>
        <PinInput
          length={6}
          type="number"
          oneTimeCode
          value={code}
          onChange={setCode}
          error={Boolean(error)}
          getInputProps={(index) => ({ 'aria-label': `Authenticator code digit ${index + 1}` })}
        />
        {error && (
          <Text c="red.8" size="sm" role="alert" data-testid="totp-error">
            {error}
          </Text>
        )}
        <Group>
          <Button type="submit" loading={busy} color={danger ? 'red' : undefined}>
            {submitLabel}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
