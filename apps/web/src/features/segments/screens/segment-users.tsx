import { Badge } from '@mantine/core';
import { users } from '../../../api/users';
import { Email } from '../../../components/email';
import type { SegmentUser } from '../api';
import { SegmentFrame } from '../components/segment-frame';
import { type MemberKind, SegmentMembers } from '../components/segment-members';

const fullName = (u: { first_name: string; last_name: string }) =>
  `${u.first_name} ${u.last_name}`.trim();

function useUserChoices(search: string) {
  const list = users.useList({ search: search || undefined, page_size: 20 });
  return {
    data: (list.data?.results ?? []).map((u) => ({
      value: String(u.id),
      label: `${fullName(u)} (${u.email})`,
    })),
    loading: list.isFetching,
  };
}

const USERS: MemberKind<SegmentUser> = {
  sub: 'users',
  field: 'user',
  names: { item: 'segment user', plural: 'users' },
  columns: [
    { key: 'name', header: 'Name', render: fullName },
    { key: 'email', header: 'Email', render: (u) => <Email address={u.email} /> },
    {
      key: 'status',
      header: 'Status',
      render: (u) => (
        <Badge variant="light" color={u.is_active ? 'teal' : 'gray'}>
          {u.is_active ? 'Active' : 'Deactivated'}
        </Badge>
      ),
    },
  ],
  label: (u) => fullName(u) || u.email,
  useChoices: useUserChoices,
  pickLabel: 'User of your organisation',
  addText: 'Add user',
  removeText: 'Remove',
  intro:
    'Users of a segment who are not administrators see only the cases and subjects of its processes.',
  empty: {
    title: 'No users in this segment',
    text: 'Add a user of your organisation to limit what they see to this segment.',
  },
  alsoRefresh: [users.key],
};

/** /segments/{id}/users: the segment's users, one added or removed. */
export default function SegmentUsers() {
  return <SegmentFrame>{(s) => <SegmentMembers segment={s} kind={USERS} />}</SegmentFrame>;
}
