import { TokenPasswordPage } from './password-reset-confirm-page';

export default function SetPasswordPage() {
  return (
    <TokenPasswordPage
      title="Set your password"
      subtitle="Choose a password to finish setting up your account."
      submitLabel="Set password"
    />
  );
}
