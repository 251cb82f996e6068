import type { CaseDocumentOut } from '@kestrel/domain';
import { Alert, Button, Group, Paper, Stack, Text } from '@mantine/core';
import { useRef, useState } from 'react';
import {
  checkFile,
  DOCUMENT_ACCEPT,
  DocumentFacts,
  DocumentViewer,
  type UploadResult,
  uploadErrorText,
} from '../../../documents';
import { UploadProgress } from './upload-progress';

export type PageChange = 'replace' | 'add-pages';

/**
 * An uploaded document: its pages (thumbnails, viewer, Open) and, until the case is submitted,
 * Replace (new pages instead of the old), Add a page, and Remove.
 */
export function UploadedDocument({
  doc,
  readOnly,
  onChangePages,
  onRemove,
}: {
  doc: CaseDocumentOut;
  readOnly: boolean;
  onChangePages: (
    mode: PageChange,
    files: File[],
    onProgress: (f: number) => void,
  ) => Promise<UploadResult>;
  onRemove: () => Promise<boolean>;
}) {
  const input = useRef<HTMLInputElement>(null);
  const [mode, setMode] = useState<PageChange>('replace');
  const [progress, setProgress] = useState<number | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [confirmRemove, setConfirmRemove] = useState(false);
  const busy = progress !== null;
  const pick = (m: PageChange) => {
    setMode(m);
    setError(null);
    input.current?.click();
  };
  const send = async (list: FileList | null) => {
    const files = Array.from(list ?? []);
    if (files.length === 0) return;
    const problem = files.map((f) => checkFile(f)).find((p) => p !== null);
    if (problem) {
      setError(problem);
      return;
    }
    setProgress(0);
    const res = await onChangePages(mode, files, setProgress);
    setProgress(null);
    if (!res.ok) setError(uploadErrorText(res));
  };
  const errorId = `doc-${doc.id}-error`;
  return (
    <Paper withBorder p="sm" radius="md" data-testid="uploaded-document">
      <Stack gap="sm">
        <DocumentFacts doc={doc} />
        {doc.rejected && (
          <Alert
            color="red"
            variant="light"
            title="This document was not accepted"
            data-testid="rejected-document"
          >
            <Stack gap={4}>
              {doc.rejection_reason && <Text size="sm">Reason: {doc.rejection_reason}</Text>}
              {!readOnly && (
                <Text size="sm">Replace it with a clearer photo or scan, or remove it.</Text>
              )}
            </Stack>
          </Alert>
        )}
        <Text size="sm" c="dimmed">
          {doc.pages.length === 1 ? '1 page' : `${doc.pages.length} pages`}
        </Text>
        <DocumentViewer document={doc} />
        {error && (
          <Text id={errorId} c="red.8" fw={600} size="sm" role="alert">
            {error}
          </Text>
        )}
        {busy && (
          <UploadProgress
            value={progress}
            label={mode === 'replace' ? 'Replacing' : 'Adding pages'}
          />
        )}
        {!readOnly && doc.source !== 'idsp' && (
          <>
            <input
              ref={input}
              type="file"
              accept={DOCUMENT_ACCEPT}
              multiple
              hidden
              data-testid={`doc-${doc.id}-input`}
              onChange={(e) => {
                void send(e.currentTarget.files);
                e.currentTarget.value = '';
              }}
            />
            {confirmRemove ? (
              <Group gap="sm">
                <Text size="sm" fw={600}>
                  Remove this {doc.document_type.toLowerCase()}?
                </Text>
                <Button
                  color="red"
                  size="md"
                  onClick={async () => {
                    const ok = await onRemove();
                    if (!ok) setError('Error deleting case document');
                    setConfirmRemove(false);
                  }}
                >
                  Yes, remove it
                </Button>
                <Button variant="default" size="md" onClick={() => setConfirmRemove(false)}>
                  Keep it
                </Button>
              </Group>
            ) : (
              <Group gap="sm">
                <Button
                  variant="default"
                  size="md"
                  disabled={busy}
                  onClick={() => pick('replace')}
                  aria-label={`Replace ${doc.document_type}`}
                  aria-describedby={error ? errorId : undefined}
                >
                  Replace
                </Button>
                <Button
                  variant="default"
                  size="md"
                  disabled={busy}
                  onClick={() => pick('add-pages')}
                  aria-label={`Add a page to ${doc.document_type}`}
                >
                  Add a page
                </Button>
                <Button
                  variant="subtle"
                  color="red"
                  size="md"
                  disabled={busy}
                  onClick={() => setConfirmRemove(true)}
                  aria-label={`Remove ${doc.document_type}`}
                >
                  Remove
                </Button>
              </Group>
            )}
          </>
        )}
      </Stack>
    </Paper>
  );
}
