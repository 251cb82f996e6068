import { Paper, Stack, Text } from '@mantine/core';
import { useRights } from '../../../lib/rights';
import { RecordViewsTable } from './record-views-table';

/**
 * A case's 'Who saw what' section (issue 34): who opened its criminal-record and driving results
 * and its documents, how, when and how many times. Shown to those who may read the audit log
 * (audit.view_auditaction): the record of who saw a certificate is the organisation's audit
 * record, kept for its data protection lead, not a page every case reader sees of colleagues.
 */
export function CaseViews({ caseId }: { caseId: number }) {
  const { can } = useRights();
  if (!can('audit.view_auditaction')) return null;
  return (
    <Paper withBorder radius="lg" p="lg" data-testid="case-views">
      <Stack gap="sm">
        <Stack gap={2}>
          <Text fw={650}>Who saw what</Text>
          <Text size="sm" c="dimmed">
            Everyone who opened this case's criminal-record or driving results or its documents,
            once a day per person and item, with how many times.
          </Text>
        </Stack>
        <RecordViewsTable
          params={{ case: caseId }}
          showCase={false}
          empty={{
            title: 'Nobody has seen these yet',
            text: "When someone opens this case's results or documents, it shows here.",
          }}
        />
      </Stack>
    </Paper>
  );
}
