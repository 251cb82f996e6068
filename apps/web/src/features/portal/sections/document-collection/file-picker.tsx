import { cleanFileName } from '@kestrel/domain';
import { ActionIcon, Button, Group, Image, Paper, Stack, Text } from '@mantine/core';
import { useEffect, useMemo, useRef } from 'react';
import { Icon } from '../../../../components/icons';
import { checkFile, DOCUMENT_ACCEPT } from '../../../documents';

const keys = new WeakMap<File, string>();
let nextKey = 0;
/** A stable key per chosen file (the same file object keeps its key). */
function fileKey(f: File): string {
  let k = keys.get(f);
  if (!k) {
    nextKey += 1;
    k = `file-${nextKey}`;
    keys.set(f, k);
  }
  return k;
}

const previewable = (f: File) => f.type === 'image/jpeg' || f.type === 'image/png';

export function formatSize(bytes: number): string {
  if (bytes < 1024) return `${bytes} bytes`;
  if (bytes < 1024 * 1024) return `${Math.round(bytes / 1024)} KB`;
  return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
}

/** One chosen page, with a preview of a photo (HEIC and PDF show an icon until uploaded). */
function PendingPage({
  file,
  index,
  onRemove,
}: {
  file: File;
  index: number;
  onRemove: () => void;
}) {
  const url = useMemo(() => (previewable(file) ? URL.createObjectURL(file) : null), [file]);
  // shown as the server will keep it: no control or bidirectional characters
  const name = cleanFileName(file.name);
  useEffect(() => () => (url ? URL.revokeObjectURL(url) : undefined), [url]);
  return (
    <Paper withBorder p="xs" radius="md">
      <Group wrap="nowrap" gap="sm">
        <div
          style={{
            width: 48,
            height: 60,
            display: 'grid',
            placeItems: 'center',
            flex: 'none',
            overflow: 'hidden',
            borderRadius: 4,
            background: 'var(--mantine-color-gray-1)',
          }}
        >
          {url ? (
            <Image src={url} alt="" w={48} h={60} fit="cover" />
          ) : (
            <Icon name="file" size={28} />
          )}
        </div>
        <Stack gap={0} style={{ flex: 1, minWidth: 0 }}>
          <Text size="sm" fw={600}>
            Page {index + 1}
          </Text>
          <Text size="sm" truncate title={name}>
            {name}
          </Text>
          <Text size="xs" c="dimmed">
            {formatSize(file.size)}
          </Text>
        </Stack>
        <ActionIcon
          variant="default"
          size={44}
          aria-label={`Remove page ${index + 1} (${name})`}
          onClick={onRemove}
        >
          <span aria-hidden="true" style={{ fontSize: 22, lineHeight: 1 }}>
            ×
          </span>
        </ActionIcon>
      </Group>
    </Paper>
  );
}

/**
 * Take a photo (the phone's camera) or choose files (JPEG, PNG, HEIC, PDF); each chosen file is
 * one page. A file of the wrong type or over the cap is refused with the server's words.
 */
export function FilePicker({
  id,
  files,
  onChange,
  onRefused,
  disabled,
  error,
}: {
  id: string;
  files: readonly File[];
  onChange: (files: File[]) => void;
  onRefused: (message: string | null) => void;
  disabled?: boolean;
  error?: string | undefined;
}) {
  const camera = useRef<HTMLInputElement>(null);
  const chooser = useRef<HTMLInputElement>(null);
  const add = (list: FileList | null) => {
    if (!list) return;
    const accepted: File[] = [];
    let refused: string | null = null;
    for (const f of Array.from(list)) {
      const problem = checkFile(f);
      if (problem) refused = problem;
      else accepted.push(f);
    }
    onRefused(refused);
    if (accepted.length) onChange([...files, ...accepted]);
  };
  const errorId = `${id}-error`;
  return (
    <Stack gap="xs">
      <Text fw={600} component="p" m={0} id={`${id}-label`}>
        Photos or scans of the document
      </Text>
      <Text size="sm" c="dimmed" m={0}>
        JPEG, PNG, HEIC or PDF. Add one file per page (front and back of a card are two pages).
      </Text>
      {error && (
        <Text id={errorId} c="red.8" size="sm" fw={600}>
          {error}
        </Text>
      )}
      <Group gap="sm">
        <Button
          id={id}
          size="md"
          variant="light"
          leftSection={<Icon name="upload" size={18} />}
          onClick={() => camera.current?.click()}
          disabled={disabled}
          aria-describedby={error ? errorId : undefined}
        >
          Take a photo
        </Button>
        <Button
          size="md"
          variant="default"
          leftSection={<Icon name="file" size={18} />}
          onClick={() => chooser.current?.click()}
          disabled={disabled}
        >
          Choose files
        </Button>
      </Group>
      <input
        ref={camera}
        type="file"
        accept="image/*"
        capture="environment"
        hidden
        data-testid={`${id}-camera`}
        onChange={(e) => {
          add(e.currentTarget.files);
          e.currentTarget.value = '';
        }}
      />
      <input
        ref={chooser}
        type="file"
        accept={DOCUMENT_ACCEPT}
        multiple
        hidden
        data-testid={`${id}-input`}
        onChange={(e) => {
          add(e.currentTarget.files);
          e.currentTarget.value = '';
        }}
      />
      {files.length > 0 && (
        <ol
          aria-label="Chosen pages"
          style={{ listStyle: 'none', margin: 0, padding: 0, display: 'grid', gap: 8 }}
        >
          {files.map((f, i) => (
            <li key={fileKey(f)}>
              <PendingPage
                file={f}
                index={i}
                onRemove={() => onChange(files.filter((_, j) => j !== i))}
              />
            </li>
          ))}
        </ol>
      )}
    </Stack>
  );
}
