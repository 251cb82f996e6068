import { zodResolver } from '@hookform/resolvers/zod';
import { passwordStrengthSchema } from '@kestrel/domain';
import { Alert, Button, PasswordInput, Stack } from '@mantine/core';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { z } from 'zod';
import type { ApiResult } from '../../api/client';
import { MESSAGES_UI } from '../../api/messages';
import { applyServerFieldErrors } from '../../components/form-kit';

const schema = z
  .object({
    password: passwordStrengthSchema({ minLength: 12 }),
    confirm: z.string(),
  })
  .refine((v) => v.password === v.confirm, {
    path: ['confirm'],
    message: 'Passwords do not match',
  });
type Values = z.infer<typeof schema>;

/** New password + confirmation, used by reset-confirm, set-password and claim-account. */
export function NewPasswordForm({
  submitLabel,
  onSubmit,
}: {
  submitLabel: string;
  onSubmit: (password: string) => Promise<ApiResult<unknown>>;
}) {
  const [error, setError] = useState<string | null>(null);
  const form = useForm<Values>({
    resolver: zodResolver(schema),
    defaultValues: { password: '', confirm: '' },
  });
  const submit = form.handleSubmit(async ({ password }) => {
    setError(null);
    const r = await onSubmit(password);
    if (!r.ok) {
      const lines = applyServerFieldErrors<Values>(form, r.data, ['password']);
      setError(
        lines.length ? lines.join('\n') : r.status === 400 ? null : MESSAGES_UI.defaultError,
      );
    }
  });
  const { errors, isSubmitting } = form.formState;
  return (
    <form onSubmit={submit} noValidate>
      <Stack gap="md">
        {error && (
          <Alert color="red" variant="light" role="alert" style={{ whiteSpace: 'pre-line' }}>
            {error}
          </Alert>
        )}
        <PasswordInput
          label="New password"
          description="At least 12 characters."
          autoComplete="new-password"
          required
          error={errors.password?.message}
          {...form.register('password')}
        />
        <PasswordInput
          label="Confirm new password"
          autoComplete="new-password"
          required
          error={errors.confirm?.message}
          {...form.register('confirm')}
        />
        <Button type="submit" fullWidth size="md" loading={isSubmitting}>
          {submitLabel}
        </Button>
      </Stack>
    </form>
  );
}
