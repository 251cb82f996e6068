import { Paper, Stack, Title } from '@mantine/core';
import { CaseDocumentsPanel } from './case-documents-panel';
import type { DocumentAudience } from './documents-api';

/** The case detail's Documents card (customer or ops): every document of the case, by collector. */
export default function CaseDocumentsCard({
  caseId,
  audience = 'customer',
}: {
  caseId: number;
  audience?: Exclude<DocumentAudience, 'subject'>;
}) {
  return (
    <Paper withBorder radius="lg" p={{ base: 'md', sm: 'lg' }} data-testid="case-documents-card">
      <Stack gap="md">
        <Title order={2} size="h3">
          Documents
        </Title>
        <CaseDocumentsPanel caseId={caseId} audience={audience} />
      </Stack>
    </Paper>
  );
}
