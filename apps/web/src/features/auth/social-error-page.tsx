import { Anchor, Text } from '@mantine/core';
import { Link, useSearchParams } from 'react-router';
import { href } from '../../config/paths';
import { AuthCard } from './auth-card';

export default function SocialErrorPage() {
  const [params] = useSearchParams();
  const reason = params.get('error');
  return (
    <AuthCard title="We could not sign you in">
      <Text>
        Signing in with your other account did not work{reason ? ` (${reason})` : ''}. Try again, or
        sign in with your email and password.
      </Text>
      <Anchor component={Link} to={href('login')}>
        Back to sign in
      </Anchor>
    </AuthCard>
  );
}
