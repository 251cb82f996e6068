import { ssoReasonText } from '@kestrel/domain';
import { Alert, Button, Stack, Text, Title } from '@mantine/core';
import { Link, useSearchParams } from 'react-router';
import { href } from '../../config/paths';

/** /auth/social-error?reason=<code>: why the organisation sign-in failed, in one sentence. */
export function SsoError() {
  const [params] = useSearchParams();
  const reason = params.get('reason');
  return (
    <Stack gap="lg">
      <Stack gap={6}>
        <Title order={1} fz={{ base: 26, sm: 30 }}>
          We could not sign you in
        </Title>
        <Text c="dimmed">Signing in through your organisation did not work.</Text>
      </Stack>
      <Alert color="red" variant="light" role="alert" data-testid="sso-error-reason">
        {ssoReasonText(reason)}
      </Alert>
      <Button component={Link} to={href('login')} size="md" fullWidth>
        Back to sign in
      </Button>
    </Stack>
  );
}
