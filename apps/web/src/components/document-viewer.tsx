import { Anchor, Box, Group, Image, Modal, Stack, Text, UnstyledButton } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { Icon } from './icons';

export interface ViewableDocument {
  /** Shown under the thumbnail and as the viewer title, e.g. 'Passport'. */
  name: string;
  /** Inline URL, e.g. `/api/case-documents/4/download/?inline=true` (subjects: `/api/s/...`). */
  url: string;
  /** File extension without the dot; 'pdf' or an image type. */
  extension: string;
}

const isPdf = (doc: ViewableDocument) => doc.extension.toLowerCase().replace('.', '') === 'pdf';

/** A document thumbnail (pdf or image) that opens a viewer, with an Open link (spec point 2). */
export function DocumentViewer({
  document: doc,
  width = 140,
}: {
  document: ViewableDocument;
  width?: number;
}) {
  const [opened, { open, close }] = useDisclosure(false);
  const pdf = isPdf(doc);
  return (
    <Stack gap={6} w={width} data-testid="document-viewer">
      <UnstyledButton
        onClick={open}
        // A PDF's thumbnail shows 'PDF': the name starts with it (WCAG 2.5.3).
        aria-label={`${pdf ? 'PDF: ' : ''}View ${doc.name}`}
        style={{
          width,
          height: Math.round(width * 1.3),
          borderRadius: 8,
          overflow: 'hidden',
          border: '1px solid var(--mantine-color-default-border)',
          background: 'light-dark(var(--mantine-color-gray-0), var(--mantine-color-dark-6))',
          display: 'grid',
          placeItems: 'center',
        }}
      >
        {pdf ? (
          <Stack gap={4} align="center" c="red.8">
            <Icon name="file" size={40} />
            <Text size="xs" fw={700}>
              PDF
            </Text>
          </Stack>
        ) : (
          <Image src={doc.url} alt="" fit="cover" w="100%" h="100%" loading="lazy" />
        )}
      </UnstyledButton>
      <Group justify="space-between" gap={4} wrap="nowrap">
        <Text size="sm" truncate title={doc.name}>
          {doc.name}
        </Text>
        <Anchor
          href={doc.url}
          target="_blank"
          rel="noopener noreferrer"
          size="sm"
          aria-label={`Open ${doc.name} in a new tab`}
        >
          Open
        </Anchor>
      </Group>
      <Modal opened={opened} onClose={close} title={doc.name} size="xl" centered>
        <Box h="75vh">
          {pdf ? (
            <iframe
              src={doc.url}
              title={doc.name}
              style={{ width: '100%', height: '100%', border: 0 }}
            />
          ) : (
            <Image src={doc.url} alt={doc.name} fit="contain" h="100%" />
          )}
        </Box>
      </Modal>
    </Stack>
  );
}
