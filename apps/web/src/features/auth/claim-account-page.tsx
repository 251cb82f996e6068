import type { LoginOut } from '@kestrel/domain';
import { Alert } from '@mantine/core';
import { useNavigate, useSearchParams } from 'react-router';
import { request } from '../../api/client';
import { href } from '../../config/paths';
import { adoptNewSession } from '../../lib/session/session-actions';
import { AuthCard } from './auth-card';
import { NewPasswordForm } from './new-password-form';

/** A subject sets a password for the account made for them, and is signed in. */
export default function ClaimAccountPage() {
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const token = params.get('token') ?? '';
  return (
    <AuthCard
      title="Claim your account"
      subtitle="Set a password to see and complete the checks requested for you."
    >
      {token ? (
        <NewPasswordForm
          submitLabel="Claim account"
          onSubmit={async (password) => {
            const r = await request<LoginOut>('POST', '/api/user/claim-account/', {
              body: { token, password },
            });
            if (r.ok) {
              await adoptNewSession(r.data?.csrf_token);
              navigate(href('bootstrap', {}, { next: href('s:dashboard') }), { replace: true });
            }
            return r;
          }}
        />
      ) : (
        <Alert color="red" variant="light" role="alert">
          This link is incomplete. Open the link from your email again.
        </Alert>
      )}
    </AuthCard>
  );
}
