import '@mantine/core/styles/Progress.css';
import { Progress, Stack, Text } from '@mantine/core';

/** The bytes sent so far, while an upload runs. */
export function UploadProgress({ value, label = 'Uploading' }: { value: number; label?: string }) {
  const percent = Math.round(value * 100);
  return (
    <Stack gap={4} aria-live="polite">
      <Text size="sm">
        {label}… {percent}%
      </Text>
      <Progress
        value={percent}
        size="lg"
        aria-label={`${label}: ${percent}%`}
        animated={percent < 100}
      />
    </Stack>
  );
}
