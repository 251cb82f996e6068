import { Alert, Button, Group, Paper, Skeleton, Stack, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useNavigate, useParams } from 'react-router';
import { archivableOptions, cases, useCaseAction } from '../../../api/cases';
import { href } from '../../../config/paths';

/** Archive a case after the server's archivable check (complete or cancelled, not archived). */
export default function CaseArchive() {
  const { id = '' } = useParams();
  const navigate = useNavigate();
  const item = cases.useItem(id);
  const check = useQuery(archivableOptions(id));
  const archive = useCaseAction('archive');
  const c = item.data;
  if (!c || check.isPending) return <Skeleton h={200} radius="lg" />;
  const go = async () => {
    if (await archive.mutateAsync({ id: c.id })) navigate(href('case-detail', { id: c.id }));
  };
  const ok = check.data?.archivable ?? false;
  return (
    <Stack gap="lg" maw={640}>
      <Title order={1}>Archive case #{c.id}</Title>
      <Paper withBorder radius="lg" p="xl">
        <Stack gap="md">
          <Text>
            Archive the case of {c.subject.first_name} {c.subject.last_name} under {c.process.name}?
            Archived cases leave the case list and the dashboard counts; they stay readable.
          </Text>
          {!ok && (
            <Alert color="yellow" title="This case cannot be archived">
              {check.data?.reason ?? 'Only complete or cancelled cases can be archived.'}
            </Alert>
          )}
          <Group justify="flex-end">
            <Button variant="default" onClick={() => navigate(href('case-detail', { id: c.id }))}>
              Back to case
            </Button>
            <Button color="red" onClick={go} loading={archive.isPending} disabled={!ok}>
              Archive case
            </Button>
          </Group>
        </Stack>
      </Paper>
    </Stack>
  );
}
