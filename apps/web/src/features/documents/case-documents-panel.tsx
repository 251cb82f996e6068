import type { CaseDocumentOut } from '@kestrel/domain';
import {
  ActionIcon,
  Alert,
  Badge,
  Button,
  Group,
  Loader,
  Paper,
  Stack,
  Text,
  Title,
} from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { copyText } from '../../components/copy-button';
import { Icon } from '../../components/icons';
import { RedactionNotice } from '../retention';
import { collectorOf, groupLabel } from './collectors';
import { DocumentViewer } from './document-viewer';
import { type DocumentAudience, listCaseDocuments } from './documents-api';

/** How often a list with a preview still being made is read again. */
const PREVIEW_POLL_MS = 2_000;

/** The query key of a case's documents (invalidate it after an upload). */
export const caseDocumentsKey = (
  audience: DocumentAudience,
  caseId: number,
  activity?: number | null,
) => ['case-documents', audience, caseId, activity ?? null] as const;

export function useCaseDocuments(
  audience: DocumentAudience,
  caseId: number,
  activity?: number | null,
) {
  return useQuery({
    queryKey: caseDocumentsKey(audience, caseId, activity),
    queryFn: async () => {
      const res = await listCaseDocuments(audience, caseId, activity);
      if (!res.ok) throw new Error(String(res.status));
      return res.data.results;
    },
    // previews are made in the background after an upload: look again until they are
    refetchInterval: (query) =>
      query.state.data?.some((d) => d.pages.some((p) => p.preview === 'pending'))
        ? PREVIEW_POLL_MS
        : false,
  });
}

/** Documents by collector, in first-seen order. */
export function byCollector(docs: readonly CaseDocumentOut[]): [string, CaseDocumentOut[]][] {
  const groups = new Map<string, CaseDocumentOut[]>();
  for (const d of docs) {
    const list = groups.get(d.collector) ?? [];
    list.push(d);
    groups.set(d.collector, list);
  }
  return [...groups];
}

/** Type, group name and route number; group and route are hidden for the identity provider's. */
export function DocumentFacts({ doc }: { doc: CaseDocumentOut }) {
  const idsp = doc.source === 'idsp';
  return (
    <Stack gap={2}>
      <Text fw={600}>{doc.document_type}</Text>
      {!idsp && (doc.group || doc.route_index !== null) && (
        <Group gap="xs">
          {doc.group && <Badge variant="light">{groupLabel(doc.group)}</Badge>}
          {doc.route_index !== null && <Badge variant="outline">Route {doc.route_index}</Badge>}
        </Group>
      )}
      {idsp && (
        <Text size="sm" c="dimmed">
          From the identity service provider
        </Text>
      )}
    </Stack>
  );
}

/**
 * The document collection result (spec point 2): per collector, the non-rejected documents with
 * type, group name and route number, a thumbnail, a viewer and an Open link; the customer view
 * has a copy-id button. Each audience reads through its own path (subjects: /api/s/...).
 */
export function CaseDocumentsPanel({
  caseId,
  caseActivity,
  audience,
}: {
  caseId: number;
  caseActivity?: number | null;
  audience: DocumentAudience;
}) {
  const q = useCaseDocuments(audience, caseId, caseActivity);
  if (q.isPending) return <Loader size="sm" role="status" aria-label="Loading documents" />;
  if (q.isError)
    return (
      <Alert color="red" title="Error getting list of case documents">
        <Button variant="default" onClick={() => void q.refetch()}>
          Try again
        </Button>
      </Alert>
    );
  const docs = q.data.filter((d) => !d.rejected);
  if (docs.length === 0) return <Text c="dimmed">No documents have been uploaded yet.</Text>;
  return (
    <Stack gap="lg" data-testid="case-documents">
      {byCollector(docs).map(([collector, list]) => (
        <Stack key={collector} gap="sm">
          <Title order={3} size="h4">
            {collectorOf(collector).title}
          </Title>
          {list.map((doc) => (
            <Paper key={doc.id} withBorder p="sm" radius="md">
              <Stack gap="sm">
                <Group justify="space-between" align="flex-start" wrap="nowrap">
                  <DocumentFacts doc={doc} />
                  {audience === 'customer' && (
                    <ActionIcon
                      variant="default"
                      size={44}
                      aria-label={`Copy document id ${doc.id}`}
                      title="Copy id"
                      onClick={() => void copyText(String(doc.id))}
                    >
                      <Icon name="copy" size={18} />
                    </ActionIcon>
                  )}
                </Group>
                {audience === 'customer' && (
                  <RedactionNotice caseId={caseId} target="document" targetId={doc.id} />
                )}
                <DocumentViewer document={doc} />
              </Stack>
            </Paper>
          ))}
        </Stack>
      ))}
    </Stack>
  );
}
