import { formatDate, subjectAccountText } from '@kestrel/domain';
import { Badge, Button, Group, Stack, Title } from '@mantine/core';
import { useState } from 'react';
import { Link } from 'react-router';
import { fullName, type Subject, subjects } from '../../../api/subjects';
import { Email } from '../../../components/email';
import { ResourceTable } from '../../../components/resource-table';
import { href } from '../../../config/paths';
import { Can, useRights } from '../../../lib/rights';
import { BulkSubscribe } from '../../cycles';

export default function SubjectList() {
  const { can, entitled } = useRights();
  // subscribing many at once (issue 31): with the cycles entitlement and the permission
  const bulk = entitled('cycles') && can('subscriptions.add_subscription');
  const [chosen, setChosen] = useState<Set<number>>(new Set());
  return (
    <Stack gap="lg">
      <Group justify="space-between">
        <Title order={1}>Subjects</Title>
        <Group gap="sm">
          <Button variant="default" component={Link} to={href('subject-data-requests')}>
            Erasure requests
          </Button>
          <Can entitlement="subject_dedup">
            <Button variant="default" component={Link} to={href('subject-duplicates')}>
              Possible duplicates
            </Button>
          </Can>
          <Can permission="subjects.add_subject">
            <Button component={Link} to={href('subject-add')}>
              Add subject
            </Button>
          </Can>
        </Group>
      </Group>
      {bulk && chosen.size > 0 && (
        <BulkSubscribe subjectIds={[...chosen]} onDone={() => setChosen(new Set())} />
      )}
      <ResourceTable<Subject>
        resource={subjects}
        {...(bulk
          ? {
              selection: {
                selected: chosen,
                onChange: setChosen,
                label: (s: Subject) => fullName(s),
              },
            }
          : {})}
        rowHref={(s) => href('subject', { id: s.id })}
        empty={{
          title: 'No subjects yet',
          text: 'Subjects are the people you check. Add one, or open a case and add the person there.',
          action: (
            <Can permission="subjects.add_subject">
              <Button component={Link} to={href('subject-add')} size="sm">
                Add your first subject
              </Button>
            </Can>
          ),
        }}
        filters={[
          {
            name: 'is_archived',
            label: 'Archived',
            options: [
              { value: 'true', label: 'Archived only' },
              { value: 'all', label: 'Archived and current' },
            ],
          },
        ]}
        columns={[
          { key: 'name', header: 'Name', render: (s) => fullName(s) },
          { key: 'email', header: 'Email', render: (s) => <Email address={s.email} /> },
          {
            key: 'dob',
            header: 'Date of birth',
            render: (s) => <span style={{ whiteSpace: 'nowrap' }}>{formatDate(s.dob)}</span>,
          },
          { key: 'open', header: 'Open cases', render: (s) => s.open_cases },
          {
            key: 'status',
            header: 'Status',
            render: (s) =>
              s.is_archived ? (
                <Badge variant="light" color="gray">
                  Archived
                </Badge>
              ) : (
                <Badge variant="light" color={s.has_account ? 'teal' : 'yellow'}>
                  {subjectAccountText(s.has_account)}
                </Badge>
              ),
          },
        ]}
      />
    </Stack>
  );
}
