import { formatDate } from '@kestrel/domain';
import { Group, Paper, Skeleton, Stack, Text, Title, UnstyledButton } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { Link, useSearchParams } from 'react-router';
import { SUBJECT_CASES_PAGE_SIZE, subjectCases } from '../../api/subject-cases';
import { ListPagination, ListState } from '../../components/list-states';
import { href } from '../../config/paths';
import { caseWords, StateWords } from './case-parts';
import { LoadFailed } from './load-failed';

/** /s/cases: every case the person has had, newest first, each opening its detail. */
export default function SubjectCasesPage() {
  const [params, setParams] = useSearchParams();
  const page = Math.max(1, Number(params.get('page')) || 1);
  const cases = useQuery(
    subjectCases.listOptions({ page, page_size: SUBJECT_CASES_PAGE_SIZE, ordering: '-created_at' }),
  );
  const data = cases.data;
  const pages = data ? Math.ceil(data.count / SUBJECT_CASES_PAGE_SIZE) : 0;
  return (
    <Stack gap="lg" maw={760}>
      <Title order={1}>Your cases</Title>
      {cases.isPending ? (
        <Skeleton h={120} radius="lg" aria-label="Loading your cases" />
      ) : data?.failed ? (
        <LoadFailed what="cases" onRetry={() => cases.refetch()} />
      ) : !data || data.count === 0 ? (
        <ListState
          kind="empty"
          plural="cases"
          empty={{
            title: 'No cases yet',
            text: 'When an organisation asks you to complete checks, the case appears here.',
          }}
          onRetry={noop}
          onClear={noop}
        />
      ) : (
        <Stack gap="sm" component="ul" p={0} m={0} style={{ listStyle: 'none' }}>
          {data.results.map((c) => (
            <li key={c.id}>
              <UnstyledButton
                component={Link}
                to={href('subject-case-detail', { id: c.id })}
                w="100%"
                data-testid="subject-case-row"
              >
                <Paper withBorder radius="md" p="md" mih={44}>
                  <Group justify="space-between" gap="xs" wrap="wrap">
                    <Stack gap={2}>
                      <Text fw={600} td="underline">
                        {c.customer.name}
                      </Text>
                      <Text size="sm" c="dimmed">
                        Requested on {formatDate(c.created_at)} · {c.progress.completed} of{' '}
                        {c.progress.total} steps done
                      </Text>
                    </Stack>
                    <StateWords words={caseWords(c.state, c.state_display)} state={c.state} />
                  </Group>
                </Paper>
              </UnstyledButton>
            </li>
          ))}
        </Stack>
      )}
      <ListPagination
        total={pages}
        value={page}
        onChange={(p) => setParams({ page: String(p) })}
        label="Pages of cases"
      />
    </Stack>
  );
}

const noop = () => undefined;
