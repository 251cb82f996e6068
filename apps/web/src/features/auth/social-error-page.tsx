import { SsoError } from '../sso';

/** /auth/social-error?reason=<code>: why the organisation sign-in failed (features/sso). */
export default function SocialErrorPage() {
  return <SsoError />;
}
