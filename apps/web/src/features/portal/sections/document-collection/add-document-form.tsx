import {
  DOCUMENT_MESSAGES,
  documentQuestionText,
  type EligibleDocumentType,
  MESSAGES,
} from '@kestrel/domain';
import { Button, Checkbox, NativeSelect, Paper, Stack, Text, Title } from '@mantine/core';
import { useState } from 'react';
import { ErrorSummary, type SummaryError } from '../../../../components/form-kit';
import { type Collector, groupLabel, type UploadResult, uploadErrorText } from '../../../documents';
import { FilePicker } from './file-picker';
import { UploadProgress } from './upload-progress';

export interface NewDocument {
  type: EligibleDocumentType;
  confirmations: string[];
  files: File[];
}

/** The options of the type select, grouped by the list's groups. */
function typeGroups(types: readonly EligibleDocumentType[]) {
  const groups = new Map<string, { value: string; label: string }[]>();
  for (const t of types) {
    const g = groupLabel(t.group);
    const list = groups.get(g) ?? [];
    list.push({ value: t.code, label: t.name });
    groups.set(g, list);
  }
  return [...groups].map(([group, items]) => ({ group, items }));
}

/**
 * Add one document of a collector's list: its type, its yes/no eligibility questions (each must
 * be confirmed: 'Please confirm'), and its pages from the camera or files, sent with progress.
 */
export function AddDocumentForm({
  collector,
  onUpload,
  onCancel,
}: {
  collector: Collector;
  onUpload: (doc: NewDocument, onProgress: (f: number) => void) => Promise<UploadResult>;
  onCancel?: () => void;
}) {
  const prefix = `add-${collector.key}`;
  const [code, setCode] = useState('');
  const [answers, setAnswers] = useState<Record<string, boolean>>({});
  const [files, setFiles] = useState<File[]>([]);
  const [refused, setRefused] = useState<string | null>(null);
  const [errors, setErrors] = useState<SummaryError[]>([]);
  const [focusKey, setFocusKey] = useState(0);
  const [progress, setProgress] = useState<number | null>(null);
  const type = collector.types.find((t) => t.code === code);
  const errorOf = (field: string) => errors.find((e) => e.field === field)?.message;
  const clear = (field: string) => setErrors((list) => list.filter((e) => e.field !== field));
  const fail = (list: SummaryError[]) => {
    setErrors(list);
    setFocusKey((k) => k + 1);
  };

  const submit = async (e: React.FormEvent) => {
    e.preventDefault();
    const found: SummaryError[] = [];
    if (!type) found.push({ field: `${prefix}-type`, message: MESSAGES.required });
    for (const q of type?.questions ?? []) {
      if (answers[q.id] !== true)
        found.push({
          field: `${prefix}-q-${q.id}`,
          message: MESSAGES.pleaseConfirm,
          summary: `${MESSAGES.pleaseConfirm}: ${documentQuestionText(q, 'self')}`,
        });
    }
    if (files.length === 0)
      found.push({ field: `${prefix}-files`, message: refused ?? DOCUMENT_MESSAGES.noFile });
    if (found.length > 0 || !type) {
      fail(found);
      return;
    }
    setErrors([]);
    setProgress(0);
    const result = await onUpload(
      { type, confirmations: type.questions.map((q) => q.id), files },
      setProgress,
    );
    setProgress(null);
    if (!result.ok) {
      fail([{ field: `${prefix}-files`, message: uploadErrorText(result) }]);
      return;
    }
    setCode('');
    setAnswers({});
    setFiles([]);
    setRefused(null);
  };

  const uploading = progress !== null;
  return (
    <Paper withBorder p={{ base: 'sm', sm: 'md' }} radius="md">
      <form onSubmit={submit} noValidate aria-labelledby={`${prefix}-title`}>
        <Stack gap="md">
          <Title order={3} size="h4" id={`${prefix}-title`}>
            Add a document
          </Title>
          <ErrorSummary errors={errors} focusKey={focusKey} />
          <NativeSelect
            id={`${prefix}-type`}
            label="Document type"
            size="md"
            value={code}
            disabled={uploading}
            error={errorOf(`${prefix}-type`)}
            onChange={(e) => {
              setCode(e.currentTarget.value);
              setAnswers({});
              setErrors((list) => list.filter((x) => !x.field?.startsWith(`${prefix}-q-`)));
              clear(`${prefix}-type`);
            }}
            data={[{ value: '', label: 'Select a document' }, ...typeGroups(collector.types)]}
          />
          {type && (
            <fieldset style={{ border: 0, padding: 0, margin: 0 }}>
              <legend style={{ padding: 0 }}>
                <Text fw={600}>
                  Please confirm each of these about your {type.name.toLowerCase()}
                </Text>
              </legend>
              <Stack gap="sm" mt="xs">
                {type.questions.map((q) => (
                  <Checkbox
                    key={q.id}
                    id={`${prefix}-q-${q.id}`}
                    size="md"
                    label={documentQuestionText(q, 'self')}
                    description="Tick for yes"
                    checked={answers[q.id] === true}
                    disabled={uploading}
                    error={errorOf(`${prefix}-q-${q.id}`)}
                    onChange={(e) => {
                      const checked = e.currentTarget.checked;
                      setAnswers((a) => ({ ...a, [q.id]: checked }));
                      if (checked) clear(`${prefix}-q-${q.id}`);
                    }}
                  />
                ))}
              </Stack>
            </fieldset>
          )}
          <FilePicker
            id={`${prefix}-files`}
            files={files}
            onChange={(f) => {
              setFiles(f);
              setRefused(null);
              if (f.length > 0) clear(`${prefix}-files`);
            }}
            onRefused={setRefused}
            disabled={uploading}
            error={errorOf(`${prefix}-files`) ?? refused ?? undefined}
          />
          {uploading && <UploadProgress value={progress} />}
          <Stack gap="xs" align="flex-start">
            <Button type="submit" size="md" loading={uploading} w={{ base: '100%', sm: 'auto' }}>
              Upload document
            </Button>
            {onCancel && (
              <Button variant="subtle" size="md" onClick={onCancel} disabled={uploading}>
                Cancel
              </Button>
            )}
          </Stack>
        </Stack>
      </form>
    </Paper>
  );
}
