import { redactionNotice } from '@kestrel/domain';
import { Alert } from '@mantine/core';
import { useRights } from '../../lib/rights';
import { useCaseRetention } from './api';

/**
 * 'Redacted on {date} under the retention policy' over a result or a document the retention
 * rules redacted (staff of the case's customer; nothing while loading or when it is not).
 */
export function RedactionNotice({
  caseId,
  target,
  targetId,
}: {
  caseId: number | null;
  target: 'document' | 'activity';
  targetId: number;
}) {
  const rights = useRights();
  const q = useCaseRetention(caseId, rights.can('cases.view_case'));
  const found = q.data?.redactions.find((r) => r.target === target && r.target_id === targetId);
  if (!found) return null;
  return (
    <Alert
      color="gray"
      variant="light"
      data-testid="redaction-notice"
      title={redactionNotice(found.redacted_at, found.rule)}
    >
      {found.rule_name}: {found.removed.join(', ')} removed.
    </Alert>
  );
}
