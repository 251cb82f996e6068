import { isActivityOpen } from '@kestrel/domain';
import { ActionIcon, Group, Paper, Stack, Title } from '@mantine/core';
import { copyText } from '../../components/copy-button';
import { Icon } from '../../components/icons';
import { useRights } from '../../lib/rights';
import {
  byCollector,
  collectorOf,
  DocumentFacts,
  DocumentViewer,
  useCaseDocuments,
} from '../documents';
import { RedactionNotice } from '../retention';
import { familyOf } from './data-panel-kit';
import { AcceptDocuments, RejectDocument } from './document-review';
import { type Audience, caseIdOf, Note, type PanelActivity, PanelFrame } from './panel-kit';

export const DOCUMENT_COLLECTION_TEXTS = {
  none: 'No documents have been uploaded yet.',
  failed: 'Error getting list of case documents',
  rejected: (n: number) =>
    n === 1
      ? '1 document was rejected and awaits a replacement from the person.'
      : `${n} documents were rejected and await a replacement from the person.`,
} as const;

/**
 * Document collection (spec point 2), read-only but for the review: per collector, the case's
 * non-rejected documents with type, group name and route number (hidden for the identity
 * provider's), a thumbnail, a viewer and an Open link; staff and operations get a copy-id button.
 * The subject reads through its own download path (/api/s/...). Operations, and customer staff
 * who may change checks, reject a document with a reason while the collection is open, and
 * accept the documents once it waits for their review.
 */
export function DocumentCollectionPanel({
  activity,
  audience,
}: {
  activity: PanelActivity;
  audience: Audience;
}) {
  const caseId = caseIdOf(activity) ?? 0;
  const api = familyOf(audience);
  const { can } = useRights();
  const staffApi = api === 'subject' ? null : api;
  const reviewer =
    staffApi !== null && audience !== 'subject' && can('cases.change_caseactivity')
      ? staffApi
      : null;
  const open = isActivityOpen(activity.state);
  const q = useCaseDocuments(api, caseId);
  if (q.isPending) return null;
  if (q.isError)
    return (
      <PanelFrame testId="document-collection-panel">
        <Note>{DOCUMENT_COLLECTION_TEXTS.failed}</Note>
      </PanelFrame>
    );
  const docs = q.data.filter((d) => !d.rejected);
  const rejected = q.data.length - docs.length;
  return (
    <PanelFrame testId="document-collection-panel">
      {docs.length === 0 && <Note>{DOCUMENT_COLLECTION_TEXTS.none}</Note>}
      {byCollector(docs).map(([collector, list]) => (
        <Stack key={collector} gap="sm">
          <Title order={3} size="h5">
            {collectorOf(collector).title}
          </Title>
          {list.map((doc) => (
            <Paper key={doc.id} withBorder p="sm" radius="md" data-testid="collected-document">
              <Stack gap="sm">
                <Group justify="space-between" align="flex-start" wrap="nowrap">
                  <DocumentFacts doc={doc} />
                  {audience !== 'subject' && (
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
                {reviewer && open && <RejectDocument doc={doc} family={reviewer} />}
              </Stack>
            </Paper>
          ))}
        </Stack>
      ))}
      {audience !== 'subject' && rejected > 0 && (
        <Note testId="rejected-documents">{DOCUMENT_COLLECTION_TEXTS.rejected(rejected)}</Note>
      )}
      {reviewer && activity.state === 'ca-awaiting-ops' && (
        <AcceptDocuments activityId={activity.id} family={reviewer} />
      )}
    </PanelFrame>
  );
}
