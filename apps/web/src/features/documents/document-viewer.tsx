import type { CaseDocumentOut } from '@kestrel/domain';
import {
  Anchor,
  Box,
  Button,
  Group,
  Image,
  Modal,
  Stack,
  Text,
  UnstyledButton,
} from '@mantine/core';
import { useState } from 'react';
import { Icon } from '../../components/icons';
import { inlineUrl } from './inline-url';

type Page = CaseDocumentOut['pages'][number];

const isPdf = (p: Pick<Page, 'extension' | 'content_type'>) =>
  p.extension.toLowerCase() === 'pdf' || p.content_type === 'application/pdf';

/**
 * Where a page has no thumbnail (yet): the file's kind and why, in words. The server makes
 * previews in the background after an upload ('pending') and leaves a file it cannot preview
 * within its limits without one ('none'); the file itself opens all the same.
 */
function NoPreview({ page, compact = false }: { page: Page; compact?: boolean }) {
  return (
    <Stack align="center" justify="center" gap={2} h="100%" p={4} data-testid="no-preview">
      <Icon name="file" size={compact ? 24 : 40} />
      <Text size="xs" c="dimmed" ta="center" lh={1.2}>
        {previewWords(page)}
      </Text>
    </Stack>
  );
}

/**
 * The words a thumbnail without its preview shows, in one piece (the kind included, so that they
 * are the start of the button's name): 'No preview (PDF)', 'Preview on its way'.
 */
const previewWords = (page: Page) =>
  `${page.preview === 'pending' ? 'Preview on its way' : 'No preview'}${isPdf(page) ? ' (PDF)' : ''}`;

/**
 * The name of a page's thumbnail button: what it shows in words (its 'PDF' badge, or the words in
 * place of a preview), then 'View' and the page's title.
 */
function viewLabel(page: Page, title: string): string {
  if (page.preview !== 'ready') return `${previewWords(page)}: View ${title}`;
  return `${isPdf(page) ? 'PDF: ' : ''}View ${title}`;
}

/** One page shown whole: an image, or a PDF in the browser's own viewer. */
function PageView({ page, title }: { page: Page; title: string }) {
  const url = inlineUrl(page.content_url);
  if (isPdf(page)) {
    return (
      <object
        data={url}
        type="application/pdf"
        title={title}
        style={{ width: '100%', height: '100%' }}
      >
        <Stack align="center" justify="center" h="100%" gap="sm" p="md">
          {page.preview === 'ready' ? (
            <Image src={page.thumbnail_url} alt={title} fit="contain" mah="60vh" />
          ) : (
            <NoPreview page={page} />
          )}
          <Text size="sm">
            This browser cannot show the PDF here.{' '}
            <Anchor href={url} target="_blank" rel="noopener noreferrer">
              Open the PDF
            </Anchor>
          </Text>
        </Stack>
      </object>
    );
  }
  return <Image src={url} alt={title} fit="contain" h="100%" />;
}

/**
 * A document's pages as thumbnails (a PDF's first page or the photo, from the server), each
 * opening a viewer with its pages, and an Open link to the file itself (spec point 2).
 */
export function DocumentViewer({
  document: doc,
  name = doc.document_type,
  thumbWidth = 96,
}: {
  document: Pick<CaseDocumentOut, 'id' | 'document_type' | 'pages'>;
  name?: string;
  thumbWidth?: number;
}) {
  const [open, setOpen] = useState<number | null>(null);
  const total = doc.pages.length;
  const current = open === null ? undefined : doc.pages[open];
  const title = (i: number) => (total > 1 ? `${name}, page ${i + 1} of ${total}` : name);
  return (
    <Box data-testid="document-viewer">
      <Group gap="sm" align="flex-start">
        {doc.pages.map((p, i) => (
          <Stack key={p.content_url} gap={4} w={thumbWidth}>
            <UnstyledButton
              onClick={() => setOpen(i)}
              // The name starts with what the thumbnail shows in words (WCAG 2.5.3): its
              // 'No preview' and its 'PDF' badge.
              aria-label={viewLabel(p, title(i))}
              style={{
                width: thumbWidth,
                height: Math.round(thumbWidth * 1.3),
                minHeight: 44,
                borderRadius: 8,
                overflow: 'hidden',
                border: '1px solid var(--mantine-color-default-border)',
                background: 'light-dark(var(--mantine-color-gray-0), var(--mantine-color-dark-6))',
                display: 'grid',
                placeItems: 'center',
                position: 'relative',
              }}
            >
              {p.preview === 'ready' ? (
                <Image
                  src={p.thumbnail_url}
                  alt=""
                  fit={isPdf(p) ? 'contain' : 'cover'}
                  w="100%"
                  h="100%"
                  loading="lazy"
                />
              ) : (
                <NoPreview page={p} compact />
              )}
              {isPdf(p) && p.preview === 'ready' && (
                <Text
                  size="xs"
                  fw={700}
                  c="white"
                  bg="red.9"
                  px={4}
                  style={{ position: 'absolute', bottom: 4, left: 4, borderRadius: 4 }}
                >
                  PDF
                </Text>
              )}
            </UnstyledButton>
            <Anchor
              href={inlineUrl(p.content_url)}
              target="_blank"
              rel="noopener noreferrer"
              size="sm"
              aria-label={`Open ${title(i)} in a new tab`}
              style={{ minHeight: 44, display: 'inline-flex', alignItems: 'center', gap: 4 }}
            >
              Open <Icon name="external" size={14} />
            </Anchor>
          </Stack>
        ))}
      </Group>
      <Modal
        opened={current !== undefined}
        onClose={() => setOpen(null)}
        title={open === null ? name : title(open)}
        size="xl"
        centered
      >
        {current && open !== null && (
          <Stack gap="sm">
            <Box h="70vh">
              <PageView page={current} title={title(open)} />
            </Box>
            <Group justify="space-between">
              <Group gap="xs">
                {total > 1 && (
                  <>
                    <Button
                      variant="default"
                      size="md"
                      disabled={open === 0}
                      onClick={() => setOpen(open - 1)}
                    >
                      Previous page
                    </Button>
                    <Button
                      variant="default"
                      size="md"
                      disabled={open === total - 1}
                      onClick={() => setOpen(open + 1)}
                    >
                      Next page
                    </Button>
                  </>
                )}
              </Group>
              <Anchor
                href={inlineUrl(current.content_url)}
                target="_blank"
                rel="noopener noreferrer"
              >
                Open
              </Anchor>
            </Group>
          </Stack>
        )}
      </Modal>
    </Box>
  );
}
