import { Badge } from '@mantine/core';
import { processes } from '../../../api/processes';
import type { SegmentProcess } from '../api';
import { SegmentFrame } from '../components/segment-frame';
import { type MemberKind, SegmentMembers } from '../components/segment-members';

function useProcessChoices(search: string) {
  const list = processes.useList({ search: search || undefined, page_size: 20 });
  return {
    data: (list.data?.results ?? []).map((p) => ({ value: String(p.id), label: p.name })),
    loading: list.isFetching,
  };
}

const PROCESSES: MemberKind<SegmentProcess> = {
  sub: 'processes',
  field: 'process',
  names: { item: 'segment process', plural: 'processes' },
  columns: [
    { key: 'name', header: 'Name', render: (p) => p.name },
    {
      key: 'status',
      header: 'Status',
      render: (p) => (
        <Badge variant="light" color={p.is_active ? 'teal' : 'gray'}>
          {p.is_active ? 'Active' : 'Inactive'}
        </Badge>
      ),
    },
  ],
  label: (p) => p.name,
  useChoices: useProcessChoices,
  pickLabel: 'Process',
  addText: 'Assign process',
  removeText: 'Unassign',
  intro:
    "A process belongs to one segment at most: assigning it here moves it from any other. The segment's users see the cases of these processes.",
  empty: {
    title: 'No processes in this segment',
    text: 'Assign a process to give the users of this segment its cases.',
  },
  alsoRefresh: [processes.key],
};

/** /segments/{id}/processes: the segment's processes, one assigned or unassigned. */
export default function SegmentProcesses() {
  return <SegmentFrame>{(s) => <SegmentMembers segment={s} kind={PROCESSES} />}</SegmentFrame>;
}
