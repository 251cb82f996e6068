import { Button } from '@mantine/core';
import { useResendInvitation } from '../api/subjects';

/**
 * 'Resend invitation' for a person invited without an account yet (the subject's page and the
 * case): a fresh claim link by email, confirmed by a toast.
 */
export function ResendInvitationButton({ subjectId }: { subjectId: number }) {
  const resend = useResendInvitation();
  return (
    <Button
      variant="default"
      loading={resend.isPending}
      onClick={() => resend.mutate({ id: subjectId })}
      data-testid="resend-invitation"
    >
      Resend invitation
    </Button>
  );
}
