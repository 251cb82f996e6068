import { Alert, Button, Group, Paper, Skeleton, Stack, Text, Title } from '@mantine/core';
import { useNavigate, useParams } from 'react-router';
import { fullName, type Subject, subjects, useSubjectAction } from '../../../api/subjects';
import { href } from '../../../config/paths';

/** Archive a subject; refused (button disabled, reason shown) while it has open cases. */
export default function SubjectArchive() {
  const { id = '' } = useParams();
  const navigate = useNavigate();
  const query = subjects.useItem(id);
  const archive = useSubjectAction<Subject>('archive');
  const s = query.data;
  if (!s) return <Skeleton h={200} radius="lg" />;
  const blocked = s.is_archived || s.open_cases > 0;
  const go = async () => {
    if (await archive.mutateAsync({ id: s.id })) navigate(href('subject', { id: s.id }));
  };
  return (
    <Stack gap="lg" maw={640}>
      <Title order={1}>Archive subject</Title>
      <Paper withBorder radius="lg" p="xl">
        <Stack gap="md">
          <Text>
            Archive <strong>{fullName(s)}</strong> ({s.email})? Archived subjects leave the subject
            list and no new case can be opened for them.
          </Text>
          {s.is_archived && <Alert color="gray">This subject is archived already.</Alert>}
          {s.open_cases > 0 && (
            <Alert color="yellow" title="This subject cannot be archived yet">
              {s.open_cases === 1
                ? 'This subject has 1 open case.'
                : `This subject has ${s.open_cases} open cases.`}{' '}
              Decide or cancel {s.open_cases === 1 ? 'it' : 'them'} first, then archive the subject.
            </Alert>
          )}
          <Group justify="flex-end">
            <Button variant="default" onClick={() => navigate(href('subject', { id: s.id }))}>
              Keep subject
            </Button>
            <Button color="red" onClick={go} loading={archive.isPending} disabled={blocked}>
              Archive subject
            </Button>
          </Group>
        </Stack>
      </Paper>
    </Stack>
  );
}
