import { zodResolver } from '@hookform/resolvers/zod';
import type { RegistrationOut } from '@kestrel/domain';
import {
  emailSchema,
  forenameSchema,
  passwordStrengthSchema,
  requiredFreeTextSchema,
  surnameSchema,
} from '@kestrel/domain';
import { Alert, Anchor, Button, Group, PasswordInput, Stack, Text, TextInput } from '@mantine/core';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { Link, useNavigate } from 'react-router';
import { z } from 'zod';
import { request } from '../../api/client';
import { MESSAGES_UI } from '../../api/messages';
import { applyServerFieldErrors } from '../../components/form-kit';
import { href } from '../../config/paths';
import { adoptNewSession } from '../../lib/session/session-actions';
import { AuthCard } from './auth-card';

const schema = z.object({
  customer_name: requiredFreeTextSchema,
  first_name: forenameSchema,
  last_name: surnameSchema,
  email: emailSchema,
  password: passwordStrengthSchema({ minLength: 12 }),
});
type Values = z.infer<typeof schema>;
const FIELDS = ['customer_name', 'first_name', 'last_name', 'email', 'password'] as const;

/** A new customer organisation with its first administrator, signed in on success. */
export default function NewCustomerSignupPage() {
  const navigate = useNavigate();
  const [error, setError] = useState<string | null>(null);
  const form = useForm<Values>({
    resolver: zodResolver(schema),
    defaultValues: { customer_name: '', first_name: '', last_name: '', email: '', password: '' },
  });
  const { errors, isSubmitting } = form.formState;
  const submit = form.handleSubmit(async (values) => {
    setError(null);
    const r = await request<RegistrationOut>('POST', '/api/accounts/registration/', {
      body: values,
      expect: 201,
    });
    if (r.ok) {
      await adoptNewSession(r.data?.csrf_token);
      // The dashboard greets a new organisation 'Welcome' (not 'Welcome back').
      navigate(href('bootstrap', {}, { next: href('dashboard', {}, { welcome: 'new' }) }), {
        replace: true,
      });
      return;
    }
    const lines = applyServerFieldErrors<Values>(form, r.data, FIELDS);
    setError(lines.length ? lines.join('\n') : r.status === 400 ? null : MESSAGES_UI.defaultError);
  });
  return (
    <AuthCard
      title="Create an organisation account"
      subtitle="You will be its first administrator."
    >
      <form onSubmit={submit} noValidate>
        <Stack gap="md">
          {error && (
            <Alert color="red" variant="light" role="alert" style={{ whiteSpace: 'pre-line' }}>
              {error}
            </Alert>
          )}
          <TextInput
            label="Organisation name"
            required
            error={errors.customer_name?.message}
            {...form.register('customer_name')}
          />
          <Group grow align="flex-start">
            <TextInput
              label="First name"
              autoComplete="given-name"
              required
              error={errors.first_name?.message}
              {...form.register('first_name')}
            />
            <TextInput
              label="Last name"
              autoComplete="family-name"
              required
              error={errors.last_name?.message}
              {...form.register('last_name')}
            />
          </Group>
          <TextInput
            label="Work email"
            type="email"
            autoComplete="email"
            required
            error={errors.email?.message}
            {...form.register('email')}
          />
          <PasswordInput
            label="Password"
            description="At least 12 characters."
            autoComplete="new-password"
            required
            error={errors.password?.message}
            {...form.register('password')}
          />
          <Button type="submit" size="md" fullWidth loading={isSubmitting}>
            Create account
          </Button>
          <Text size="sm" c="dimmed" ta="center">
            Already have an account?{' '}
            <Anchor component={Link} to={href('login')}>
              Sign in
            </Anchor>
          </Text>
        </Stack>
      </form>
    </AuthCard>
  );
}
