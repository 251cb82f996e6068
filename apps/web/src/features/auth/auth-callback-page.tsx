import { SsoCallback } from '../sso';

/** /auth/callback: the return point of the organisation sign-in (features/sso). */
export default function AuthCallbackPage() {
  return <SsoCallback />;
}
