import { USER_STATUS_WORDS, type UserStatus } from '@kestrel/domain';
import { Badge } from '@mantine/core';

const COLOUR: Record<UserStatus, string> = { invited: 'blue', active: 'teal', deactivated: 'gray' };

/** A user's status in words (Invited, Active, Deactivated). */
export function UserStatusBadge({ status }: { status: UserStatus }) {
  return (
    <Badge color={COLOUR[status]} variant="light">
      {USER_STATUS_WORDS[status]}
    </Badge>
  );
}
