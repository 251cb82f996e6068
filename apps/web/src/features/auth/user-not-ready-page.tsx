import { Anchor, Text } from '@mantine/core';
import { Link } from 'react-router';
import { currentBrand } from '../../app/brands';
import { href } from '../../config/paths';
import { AuthCard } from './auth-card';

export default function UserNotReadyPage() {
  return (
    <AuthCard title="Your account is not ready yet">
      <Text>
        We are still setting up your account. You will receive an email as soon as you can sign in.
        If this takes longer than a working day, contact us at {currentBrand.contact.email}.
      </Text>
      <Anchor component={Link} to={href('login')}>
        Back to sign in
      </Anchor>
    </AuthCard>
  );
}
