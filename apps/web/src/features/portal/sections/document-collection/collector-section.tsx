import type { CaseDocumentOut } from '@kestrel/domain';
import { Button, Stack, Text, Title } from '@mantine/core';
import { useState } from 'react';
import type { Collector, UploadResult } from '../../../documents';
import { AddDocumentForm, type NewDocument } from './add-document-form';
import { type PageChange, UploadedDocument } from './uploaded-document';

/** One collector's list: what is uploaded, and the form to add another document. */
export function CollectorSection({
  collector,
  documents,
  readOnly,
  error,
  onCreate,
  onChangePages,
  onRemove,
}: {
  collector: Collector;
  documents: readonly CaseDocumentOut[];
  readOnly: boolean;
  /** The section's own error (nothing uploaded for this list at Continue). */
  error?: string | undefined;
  onCreate: (doc: NewDocument, onProgress: (f: number) => void) => Promise<UploadResult>;
  onChangePages: (
    doc: CaseDocumentOut,
    mode: PageChange,
    files: File[],
    onProgress: (f: number) => void,
  ) => Promise<UploadResult>;
  onRemove: (doc: CaseDocumentOut) => Promise<boolean>;
}) {
  const [adding, setAdding] = useState(documents.length === 0);
  const headingId = `collector-${collector.key}`;
  return (
    <Stack gap="md" component="section" aria-labelledby={headingId}>
      <Title order={2} size="h3" id={headingId} tabIndex={-1}>
        {collector.title}
      </Title>
      {!readOnly && <Text>{collector.intro}</Text>}
      {error && (
        <Text c="red.8" fw={600} id={`${headingId}-error`}>
          {error}
        </Text>
      )}
      {documents.length === 0 && readOnly && <Text c="dimmed">No documents were uploaded.</Text>}
      {documents.map((d) => (
        <UploadedDocument
          key={d.id}
          doc={d}
          readOnly={readOnly}
          onChangePages={(mode, files, p) => onChangePages(d, mode, files, p)}
          onRemove={() => onRemove(d)}
        />
      ))}
      {!readOnly &&
        (adding || documents.length === 0 ? (
          <AddDocumentForm
            collector={collector}
            onUpload={async (doc, p) => {
              const res = await onCreate(doc, p);
              if (res.ok) setAdding(false);
              return res;
            }}
            {...(documents.length > 0 ? { onCancel: () => setAdding(false) } : {})}
          />
        ) : (
          <Button
            variant="light"
            size="md"
            onClick={() => setAdding(true)}
            style={{ alignSelf: 'flex-start' }}
          >
            Add another document
          </Button>
        ))}
    </Stack>
  );
}
