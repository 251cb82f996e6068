import { formatDate, RETENTION_LOOKAHEAD_DAYS } from '@kestrel/domain';
import { Alert, Anchor, Skeleton, Stack, Table, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { Link } from 'react-router';
import { href } from '../../../config/paths';
import { dueRedactionsOptions } from '../api';

/** /customer-account/retention/due: what the rules redact in the next 30 days (issue 34). */
export default function CustomerAccountRetentionDue() {
  const q = useQuery(dueRedactionsOptions());
  return (
    <Stack gap="lg" maw={1100}>
      <Stack gap={4}>
        <Title order={1}>Due for redaction</Title>
        <Text c="dimmed">
          What the retention rules will redact in the next {RETENTION_LOOKAHEAD_DAYS} days. A case
          under a legal hold is not listed.
        </Text>
        <Anchor component={Link} to={href('customer-account-retention')}>
          Retention rules
        </Anchor>
      </Stack>
      {q.isError && <Alert color="red">Error getting what is due</Alert>}
      {q.isPending && <Skeleton h={240} />}
      {q.data && q.data.length === 0 && (
        <Text c="dimmed">
          Nothing is due for redaction in the next {RETENTION_LOOKAHEAD_DAYS} days.
        </Text>
      )}
      {q.data && q.data.length > 0 && (
        <Table.ScrollContainer minWidth={640}>
          <Table striped data-testid="due-redactions">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Due</Table.Th>
                <Table.Th>Case</Table.Th>
                <Table.Th>Subject</Table.Th>
                <Table.Th>What</Table.Th>
                <Table.Th>Rule</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {q.data.map((d) => (
                <Table.Tr key={`${d.target}-${d.target_id}-${d.rule}`}>
                  <Table.Td>{formatDate(d.due_at)}</Table.Td>
                  <Table.Td>
                    <Anchor component={Link} to={href('case-detail', { id: d.case_id })}>
                      Case {d.case_id}
                    </Anchor>
                  </Table.Td>
                  <Table.Td>{d.subject_name}</Table.Td>
                  <Table.Td>{d.what}</Table.Td>
                  <Table.Td>{d.rule_name}</Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
    </Stack>
  );
}
