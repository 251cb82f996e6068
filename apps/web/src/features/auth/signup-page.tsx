import { Anchor, Button, Paper, Stack, Text } from '@mantine/core';
import { Link, useSearchParams } from 'react-router';
import { href, safeNext } from '../../config/paths';
import { ApplicantSignupForm } from './applicant-signup-form';
import { AuthCard } from './auth-card';

/**
 * Sign-up: organisations create an account; people being checked follow their email link. A
 * member of the public sent here to apply (`?next=…&subject=y`, a licence's application portal)
 * makes their own account and goes back to `next`.
 */
export default function SignupPage() {
  const [params] = useSearchParams();
  const next = safeNext(params.get('next'));
  if (params.get('subject') === 'y' && next !== '/') {
    return (
      <AuthCard title="Create your account" subtitle="You need an account to apply.">
        <ApplicantSignupForm next={next} />
      </AuthCard>
    );
  }
  return (
    <AuthCard title="Create an account" subtitle="How will you use the service?">
      <Paper withBorder p="lg" radius="md">
        <Stack gap="sm">
          <Text fw={650}>For an organisation</Text>
          <Text size="sm" c="dimmed">
            Run background, identity and licence checks on your staff, volunteers or licence
            holders.
          </Text>
          <Button component={Link} to={href('new-customer-signup')}>
            Create an organisation account
          </Button>
        </Stack>
      </Paper>
      <Paper withBorder p="lg" radius="md">
        <Stack gap="xs">
          <Text fw={650}>Being checked by an employer or council?</Text>
          <Text size="sm" c="dimmed">
            You do not need to sign up here. Use the link in the email they sent you, or sign in if
            you have already set a password.
          </Text>
        </Stack>
      </Paper>
      <Text size="sm" c="dimmed" ta="center">
        Already have an account?{' '}
        <Anchor component={Link} to={href('login')}>
          Sign in
        </Anchor>
      </Text>
    </AuthCard>
  );
}
