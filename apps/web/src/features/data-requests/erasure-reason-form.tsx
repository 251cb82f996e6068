import { Alert, Button, Group, Stack, Textarea } from '@mantine/core';

/**
 * The erasure request's reason, its error and its Cancel / send buttons: the subject's 'Your
 * data' section and the customer's 'Personal data' card (issue 34). `touch` gives the subject's
 * portal its 44 px targets.
 */
export function ErasureReasonForm({
  label,
  submit,
  value,
  onChange,
  error,
  pending,
  onCancel,
  onSubmit,
  danger = false,
  touch = false,
}: {
  label: string;
  submit: string;
  value: string;
  onChange: (value: string) => void;
  error: string | null;
  pending: boolean;
  onCancel: () => void;
  onSubmit: () => void;
  danger?: boolean;
  touch?: boolean;
}) {
  const size = touch ? { size: 'md', mih: 44 } : {};
  return (
    <Stack gap="xs">
      <Textarea
        label={label}
        value={value}
        onChange={(e) => onChange(e.currentTarget.value)}
        maxLength={1000}
        autosize
        minRows={2}
      />
      {error && (
        <Alert color="red" role="alert">
          {error}
        </Alert>
      )}
      <Group justify="flex-end">
        <Button variant="default" {...size} onClick={onCancel}>
          Cancel
        </Button>
        <Button color={danger ? 'red' : undefined} {...size} onClick={onSubmit} loading={pending}>
          {submit}
        </Button>
      </Group>
    </Stack>
  );
}
